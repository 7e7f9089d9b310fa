// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

// The README's "The answer", written as it is, with no annotation: in this
// target the protocol, the subject and the observers are all on the main
// actor, the first form of "In a Swift 6 app".

struct Item: Equatable {
  var title: String
}

protocol PlayerObserver: AnyObject {
  func player(_ player: Player, didStart item: Item)
  func playerDidStop(_ player: Player)
}

extension PlayerObserver {  // observers implement only what they need
  func player(_ player: Player, didStart item: Item) {}
  func playerDidStop(_ player: Player) {}
}

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

final class StopLabel: PlayerObserver {
  private(set) var text = ""

  init(player: Player) {
    player.addObserver(self)  // held weakly: nothing to remove later
  }

  func playerDidStop(_ player: Player) {
    text = "Stopped"
  }
}

final class NowPlayingModel: PlayerObserver {
  private(set) var title = ""

  init(player: Player) {
    player.addObserver(self)
  }

  func player(_ player: Player, didStart item: Item) {
    title = item.title
  }

  func playerDidStop(_ player: Player) {
    title = ""
  }
}
