// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// The README's code that no article shows, line for line. Scripts/build-docs.sh
// fails if a Swift block of the README is not found here, in
// ReadmeIsolationTests.swift or in the articles' snippet tests, so the
// README's code keeps compiling; the tests check what its comments say.

import Multicast
import Testing

// MARK: Three faces, one contract

struct Item {
  let title: String
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

/// Hears what starts, in order.
final class PlayedList: PlayerObserver {
  private(set) var titles: [String] = []

  func player(_ player: Player, didStart item: Item) {
    titles.append(item.title)
  }
}

@Suite("The README's code")
struct ReadmeSnippetTests {
  @Test(
    "The player's observers implement only what they need, hear it in order, and need no removing"
  )
  func playerAndStopLabel() {
    let player = Player()
    let list = PlayedList()
    player.addObserver(list)
    var label: StopLabel? = StopLabel(player: player)
    player.play(Item(title: "So What"))
    player.stop()
    #expect(label?.text == "Stopped")
    #expect(list.titles == ["So What"])
    weak let released = label
    label = nil
    #expect(released == nil, "the player kept its observer alive")
    player.play(Item(title: "Blue in Green"))
    #expect(list.titles == ["So What", "Blue in Green"])
    player.removeObserver(list)
    player.play(Item(title: "Freddie Freeloader"))
    #expect(list.titles == ["So What", "Blue in Green"])
  }
}
