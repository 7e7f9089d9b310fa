// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

// A client's own global actor, observers isolated to it, and a subject that
// lives on no actor at all: a Sendable class that anyone may call.

@globalActor
actor Store {
  static let shared = Store()
}

@Store
protocol InventoryObserver: AnyObject, Sendable {
  func inventory(_ inventory: Inventory, didReceive count: Int, of item: String)
}

final class Inventory: Sendable {
  private let observers = MulticastDelegate<any InventoryObserver>()

  func addObserver(_ observer: any InventoryObserver) {
    observers.addObserver(observer)
  }

  func removeObserver(_ observer: any InventoryObserver) {
    observers.removeObserver(observer)
  }

  /// Called from any task or thread; observers hear it on the store's actor.
  func receive(_ count: Int, of item: String) {
    observers.onActor { @Store in $0.inventory(self, didReceive: count, of: item) }
  }

  /// Returns once every delivery queued before it has been made: a last
  /// broadcast, queued behind them, resumes it.
  func delivered() async {
    await withCheckedContinuation { done in
      observers.onActor { @Store _ in done.resume() }
    }
  }
}

@Store
final class StockLevels: InventoryObserver {
  private(set) var received: [String] = []

  func inventory(_ inventory: Inventory, didReceive count: Int, of item: String) {
    received.append("\(count) \(item)")
  }
}
