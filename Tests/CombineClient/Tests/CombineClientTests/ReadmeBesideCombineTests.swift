// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// The README's code, copied as it is, in a file that imports Combine's names
// too (OpenCombine's, here), as a SwiftUI view file does: every type it
// names must resolve unqualified.

import Multicast
import OpenCombine
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

// MARK: In a Swift 6 app

final class Metronome: Sendable {
  private let tick = EventSender<Int>()
  var ticks: Event<Int> { tick.event }
  func beat(_ count: Int) { tick.send(count) }
}

@MainActor
final class TickView {
  private(set) var shown: [Int] = []
  private var subscription: EventSubscription?

  init(_ metronome: Metronome) {
    subscription = metronome.ticks.observe { [unowned self] in shown.append($0) }
  }
}

/// What the README's snippets print, in a test: a local `print` shadows the
/// standard library's.
final class Printed {
  private(set) var lines: [String] = []

  func print(_ items: Any...) {
    lines.append(items.map { "\($0)" }.joined(separator: " "))
  }
}

@Suite("The README's code, in a file that also imports Combine's names")
struct ReadmeBesideCombineTests {
  @Test("A protocol: the player's observers hear what they implement")
  func protocolFace() {
    let player = Player()
    let label = StopLabel(player: player)
    player.play(Item(title: "So What"))
    player.stop()
    #expect(label.text == "Stopped")
  }

  @Test("An event: a subscription hears the sends until it is cancelled")
  func eventFace() {
    let output = Printed()
    func print(_ items: Any...) { output.print(items.map { "\($0)" }.joined(separator: " ")) }

    let tick = EventSender<Int>()
    let ticks: Event<Int> = tick.event  // what the owner exposes
    let subscription = ticks.observe { print("tick", $0) }
    tick.send(1)  // tick 1
    subscription.cancel()
    tick.send(2)  // nothing: the subscription ended

    #expect(output.lines == ["tick 1"])
  }

  @Test("A value: a subscription hears the old and the new value until it is cancelled")
  func valueFace() {
    let output = Printed()
    func print(_ items: Any...) { output.print(items.map { "\($0)" }.joined(separator: " ")) }

    let volume = ObservableValue(0.5)
    let subscription = volume.observe { old, new in print(old, "->", new) }
    volume.value = 0.7  // 0.5 -> 0.7
    subscription.cancel()
    volume.value = 0.9  // nothing: the subscription ended

    #expect(output.lines == ["0.5 -> 0.7"])
  }

  @Test(
    "The metronome's send reaches a main-actor view where it runs, and is queued from elsewhere")
  @MainActor
  func metronome() async {
    let metronome = Metronome()
    let view = TickView(metronome)
    metronome.beat(1)  // a nonisolated method, called on the main actor
    #expect(view.shown == [1])  // [1]: the send ran where the view lives
    await Task.detached { metronome.beat(2) }.value  // elsewhere: queued
    await waitForDeliveries()
    #expect(view.shown == [1, 2])
  }

  @Test("A Set of EventSubscription and a Set of AnyCancellable live side by side")
  func subscriptionsBesideCancellables() {
    var heard: [String] = []

    // Before: a subject, sinks, and a set of cancellables.
    let combineScores = PassthroughSubject<Int, Never>()
    var cancellables: Set<AnyCancellable> = []
    combineScores.sink { heard.append("combine \($0)") }.store(in: &cancellables)

    let scores = EventSender<Int>()
    var subscriptions: Set<EventSubscription> = []
    scores.event.observe { heard.append("score \($0)") }.store(in: &subscriptions)

    combineScores.send(3)
    scores.send(3)
    subscriptions.removeAll()
    cancellables.removeAll()
    combineScores.send(4)
    scores.send(4)  // nothing: the subscriptions ended with the set

    #expect(heard == ["combine 3", "score 3"])
  }
}
