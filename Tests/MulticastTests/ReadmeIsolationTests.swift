// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

// The README's metronome (a plain class with a nonisolated `beat`), with an
// observable `volume` added so that one class shows both faces, used from
// main-actor code, from an actor and from code isolated to no actor: the
// comments say what each call prints. The README's own block is tested
// verbatim in DocumentationSnippetTests.

final class ReadmeMetronome: Sendable {
  private let tick = EventSender<Int>()
  var ticks: Event<Int> { tick.event }
  func beat(_ count: Int) { tick.send(count) }
  let volume = ObservableValue(0.5)
}

@MainActor
final class ReadmeMainActorView {
  private(set) var shown: [String] = []
  private var subscriptions: Set<EventSubscription> = []

  init(_ metronome: ReadmeMetronome) {
    metronome.ticks.observe { [unowned self] in shown.append("tick \($0)") }
      .store(in: &subscriptions)
    metronome.volume.observe { [unowned self] old, new in shown.append("\(old) -> \(new)") }
      .store(in: &subscriptions)
  }
}

actor ReadmeConductor {
  private let metronome = ReadmeMetronome()
  private var shown: [String] = []
  private var subscriptions: Set<EventSubscription> = []

  func start() {
    metronome.ticks.observe { self.shown.append("tick \($0)") }.store(in: &subscriptions)
    metronome.volume.observe { old, new in self.shown.append("\(old) -> \(new)") }
      .store(in: &subscriptions)
  }

  func play() -> [String] {
    metronome.beat(1)
    metronome.volume.value = 0.7
    return shown
  }
}

@Suite("The README's snippets, where people run them")
struct ReadmeIsolationTests {
  @Test(
    "In main-actor code, beat(1) and volume.value = 0.7 reach a main-actor view before they return")
  @MainActor
  func onTheMainActor() {
    let metronome = ReadmeMetronome()
    let view = ReadmeMainActorView(metronome)
    metronome.beat(1)  // prints "tick 1"
    #expect(view.shown == ["tick 1"])
    metronome.volume.value = 0.7  // prints "0.5 -> 0.7"
    #expect(view.shown == ["tick 1", "0.5 -> 0.7"])
  }

  @Test("On an actor, they reach the actor's own subscriptions before they return")
  func onAnActor() async {
    let conductor = ReadmeConductor()
    await conductor.start()
    #expect(await conductor.play() == ["tick 1", "0.5 -> 0.7"])
  }

  @Test("Where no actor is, they reach subscriptions made there before they return")
  func withoutAnActor() {
    let metronome = ReadmeMetronome()
    let shown = Locked<[String]>([])
    let subscription = metronome.ticks.observe { value in
      shown.withLock { $0.append("tick \(value)") }
    }
    metronome.beat(1)
    #expect(shown.withLock { $0 } == ["tick 1"])
    withExtendedLifetime(subscription) {}
  }
}
