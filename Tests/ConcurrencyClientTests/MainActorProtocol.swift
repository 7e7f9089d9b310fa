// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

// The first form of the README's "In a Swift 6 app", as a user writes it: a
// `@MainActor` protocol, a `@MainActor` subject and main-actor observers.

struct Item: Equatable, Sendable {
  var title: String
}

@MainActor
protocol PlayerObserver: AnyObject {
  func player(_ player: Player, didStart item: Item)
  func playerDidStop(_ player: Player)
}

extension PlayerObserver {  // observers implement only what they need
  func player(_ player: Player, didStart item: Item) {}
  func playerDidStop(_ player: Player) {}
}

@MainActor
final class Player {
  private let observers = MulticastDelegate<any PlayerObserver>()

  func addObserver(_ observer: any PlayerObserver) { observers.addObserver(observer) }
  func removeObserver(_ observer: any PlayerObserver) { observers.removeObserver(observer) }

  func play(_ item: Item) {
    observers { $0.player(self, didStart: item) }
  }

  func stop() {
    observers { $0.playerDidStop(self) }
  }
}

@MainActor
final class NowPlayingModel: PlayerObserver {
  private(set) var title = ""

  init(player: Player) {
    player.addObserver(self)  // held weakly: nothing to remove later
  }

  func player(_ player: Player, didStart item: Item) {
    title = item.title
  }

  func playerDidStop(_ player: Player) {
    title = ""
  }
}

final class StopLabel: PlayerObserver {  // @MainActor, as its protocol is
  private(set) var text = ""

  init(player: Player) {
    player.addObserver(self)
  }

  func playerDidStop(_ player: Player) {
    text = "Stopped"
  }
}
