// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

// The documented ways to bind an object to an event or an observable value,
// written where people write them: in the initializer of a final class, of a
// class that can be subclassed and of a main-actor class, and in a method.
// That these files compile in Swift 6 mode is half of each test.

final class Metronome {
  private let tick = EventSender<Int>()
  private let bell = EventSender<Void>()
  var ticks: Event<Int> { tick.event }
  var bells: Event<Void> { bell.event }
  let volume = ObservableValue(0.5)

  // Isolated to its caller, so that subscribers on the caller's actor are
  // called before it returns.
  func beat(_ count: Int, isolation: isolated (any Actor)? = #isolation) {
    tick.send(count)
    bell.send()
  }
}

final class FinalTickView {
  var seen: [String] = []

  init(_ metronome: Metronome) {
    metronome.ticks.observe(self, FinalTickView.didTick)
    metronome.ticks.observe(self) { me, count in me.seen.append("closure \(count)") }
    metronome.bells.observe(self, FinalTickView.didRing)
    metronome.volume.observe(self) { me, old, new in me.seen.append("volume \(old)->\(new)") }
  }

  func didTick(_ count: Int) { seen.append("method \(count)") }
  func didRing() { seen.append("ring") }
}

class OpenTickView {
  var seen: [String] = []

  init(_ metronome: Metronome) {
    metronome.ticks.observe(self, OpenTickView.didTick)
    metronome.ticks.observe(self) { me, count in me.seen.append("closure \(count)") }
    metronome.bells.observe(self, OpenTickView.didRing)
    metronome.volume.observe(self) { me, old, new in me.seen.append("volume \(old)->\(new)") }
  }

  func didTick(_ count: Int) { seen.append("method \(count)") }
  func didRing() { seen.append("ring") }
}

final class LoudTickView: OpenTickView {
  override func didTick(_ count: Int) { seen.append("loud \(count)") }
}

@MainActor
final class MainActorTickView {
  var seen: [String] = []

  init(_ metronome: Metronome) {
    metronome.ticks.observe(self, MainActorTickView.didTick)
    metronome.ticks.observe(self) { me, count in me.seen.append("closure \(count)") }
    metronome.bells.observe(self, MainActorTickView.didRing)
    metronome.volume.observe(self) { me, old, new in me.seen.append("volume \(old)->\(new)") }
  }

  func didTick(_ count: Int) { seen.append("method \(count)") }
  func didRing() { seen.append("ring") }
}

final class LateTickView {
  var seen: [String] = []

  func start(_ metronome: Metronome) {
    metronome.ticks.observe(self, LateTickView.didTick)
    metronome.ticks.observe(self) { me, count in me.seen.append("closure \(count)") }
  }

  func didTick(_ count: Int) { seen.append("method \(count)") }
}

@Suite("Documented forms where people write them")
struct DocumentedFormsTests {
  private let expected = ["method 1", "closure 1", "ring", "volume 0.5->0.8"]

  private func drive(_ metronome: Metronome, isolation: isolated (any Actor)? = #isolation) {
    metronome.beat(1)
    metronome.volume.set(0.8)
  }

  @Test("In the initializer of a final class")
  func finalClass() {
    let metronome = Metronome()
    let view = FinalTickView(metronome)
    drive(metronome)
    #expect(view.seen == expected)
  }

  @Test("In the initializer of a class that can be subclassed, overrides included")
  func openClass() {
    let metronome = Metronome()
    let view = OpenTickView(metronome)
    let loud = LoudTickView(metronome)
    drive(metronome)
    #expect(view.seen == expected)
    #expect(loud.seen == ["loud 1", "closure 1", "ring", "volume 0.5->0.8"])
  }

  @Test("In the initializer of a main-actor class")
  @MainActor
  func mainActorClass() {
    let metronome = Metronome()
    let view = MainActorTickView(metronome)
    drive(metronome)
    #expect(view.seen == expected)
  }

  @Test("In a method, until the object dies")
  func method() {
    let metronome = Metronome()
    var view: LateTickView? = LateTickView()
    view?.start(metronome)
    metronome.beat(1)
    #expect(view?.seen == ["method 1", "closure 1"])
    view = nil
    metronome.beat(2)
    #expect(!metronome.ticks.hasObservers)
  }
}
