// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

// The README's "From another actor", as a user writes it: a subject on its
// own actor, observers on the main actor, and `onMainActor` between them.

@MainActor
protocol TransferObserver: AnyObject, Sendable {
  func transfer(_ transfer: Transfer, didProgress fraction: Double)
}

actor Transfer {
  private let observers = MulticastDelegate<any TransferObserver>()

  nonisolated func addObserver(_ observer: any TransferObserver) {
    observers.addObserver(observer)
  }

  nonisolated func removeObserver(_ observer: any TransferObserver) {
    observers.removeObserver(observer)
  }

  func received(_ fraction: Double) {
    observers.onMainActor { $0.transfer(self, didProgress: fraction) }
  }
}

@MainActor
final class TransferModel: TransferObserver {
  private(set) var fractions: [Double] = []
  private var awaited = 0
  private var arrival: CheckedContinuation<Void, Never>?

  init(transfer: Transfer) {
    transfer.addObserver(self)
  }

  func transfer(_ transfer: Transfer, didProgress fraction: Double) {
    MainActor.preconditionIsolated()
    fractions.append(fraction)
    if fractions.count == awaited { arrival?.resume() }
  }

  /// Returns once the model has heard `count` fractions in all.
  func waitUntilHeard(_ count: Int) async {
    guard fractions.count < count else { return }
    await withCheckedContinuation { continuation in
      awaited = count
      arrival = continuation
    }
  }
}
