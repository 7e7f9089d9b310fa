// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Testing

@testable import Multicast

/// Observers that live on the main actor, as views and view models do.
///
/// Main-actor classes are `Sendable` already; the protocol says so, so that a
/// multicast delegate of them may be shared with other isolations.
@MainActor
protocol Screen: AnyObject, Sendable {
  func show(_ value: Int, from producer: Int)
}

/// A main-actor observer that records what it is shown, checking that it is
/// shown on the main actor.
@MainActor
final class RecordingScreen: Screen {
  let name: String
  private(set) var shown: [(producer: Int, value: Int)] = []
  private let arrivals = Arrivals()
  let log: Log?

  init(_ name: String = "", log: Log? = nil) {
    self.name = name
    self.log = log
  }

  func show(_ value: Int, from producer: Int) {
    // The compiler trusts the library to call this on the main actor: check.
    MainActor.preconditionIsolated("a main-actor observer was called off the main actor")
    shown.append((producer, value))
    log?.append("\(name) \(value)")
    arrivals.arrive()
  }

  /// Returns once the screen has been shown `count` values in all.
  func waitUntilShown(_ count: Int) async {
    await arrivals.wait(for: count)
  }
}

/// Runs `body` on a new thread and returns once it has finished, blocking
/// the caller: on the main actor, it keeps queued deliveries from running.
private func onThreadAndWait(_ body: @escaping @Sendable () -> Void) {
  let finished = DispatchSemaphore(value: 0)
  Thread {
    body()
    finished.signal()
  }.start()
  finished.wait()
}

/// An actor that broadcasts to main-actor observers.
actor Producer {
  let observers: MulticastDelegate<any Screen>
  let id: Int

  init(id: Int, observers: MulticastDelegate<any Screen>) {
    self.id = id
    self.observers = observers
  }

  func send(_ values: Range<Int>) {
    let id = id
    for value in values {
      observers.onMainActor { $0.show(value, from: id) }
    }
  }
}

@Suite("Delivery on the main actor")
@MainActor
struct MainActorDeliveryTests {
  @Test("A broadcast made on the main actor with nothing queued is delivered before it returns")
  func synchronousOnTheMainActor() {
    let log = Log()
    let observers = MulticastDelegate<any Screen>()
    let (a, b) = (RecordingScreen("a", log: log), RecordingScreen("b", log: log))
    observers.addObserver(a)
    observers.addObserver(b)
    observers.onMainActor { $0.show(1, from: 0) }
    #expect(log.entries == ["a 1", "b 1"])
    withExtendedLifetime((a, b)) {}  // observers are weak: keep them to the end
  }

  @Test("Broadcasts from an actor reach main-actor observers on the main actor, in order")
  func fromAnActor() async {
    let observers = MulticastDelegate<any Screen>()
    let screen = RecordingScreen()
    observers.addObserver(screen)
    let producer = Producer(id: 1, observers: observers)
    await producer.send(0..<1_000)
    await screen.waitUntilShown(1_000)
    #expect(screen.shown.map(\.value) == Array(0..<1_000))
  }

  @Test(
    "A broadcast on the main actor goes after those queued from elsewhere, delivering them first")
  func queuedBroadcastsComeFirst() {
    let log = Log()
    let observers = MulticastDelegate<any Screen>()
    let screen = RecordingScreen("s", log: log)
    observers.addObserver(screen)
    // The main actor is blocked meanwhile, so these wait in the queue.
    onThreadAndWait {
      for value in 1...3 { observers.onMainActor { $0.show(value, from: 1) } }
    }
    #expect(log.entries.isEmpty)
    observers.onMainActor { $0.show(4, from: 0) }
    #expect(log.entries == ["s 1", "s 2", "s 3", "s 4"])
    withExtendedLifetime(screen) {}
  }

  @Test("A queued broadcast keeps no observer alive and skips those removed before their turn")
  func weakWhileQueued() {
    let log = Log()
    let observers = MulticastDelegate<any Screen>()
    let kept = RecordingScreen("kept", log: log)
    let removed = RecordingScreen("removed", log: log)
    var released: RecordingScreen? = RecordingScreen("released", log: log)
    weak let watched = released
    for screen in [kept, removed, released!] as [any Screen] { observers.addObserver(screen) }
    onThreadAndWait { observers.onMainActor { $0.show(1, from: 1) } }
    observers.removeObserver(removed)
    released = nil
    #expect(watched == nil, "a queued broadcast kept an observer alive")
    let late = RecordingScreen("late", log: log)
    observers.addObserver(late)
    observers.onMainActor { $0.show(2, from: 0) }
    // The first broadcast was made before `late` registered.
    #expect(log.entries == ["kept 1", "kept 2", "late 2"])
    withExtendedLifetime((kept, removed, late)) {}
  }

  @Test(
    "Broadcasts delivered in one batch each reach the observers registered when it was made, minus those removed before their turn"
  )
  func batchKeepsEachBroadcastsMoment() {
    let log = Log()
    let observers = MulticastDelegate<any Screen>()
    let first = RecordingScreen("first", log: log)
    let victim = RecordingScreen("victim", log: log)
    let newcomer = RecordingScreen("newcomer", log: log)
    let late = RecordingScreen("late", log: log)
    let rearranging = RearrangingScreen(
      observers: observers, removing: victim, adding: newcomer, log: log)
    for screen in [first, rearranging, victim] as [any Screen] { observers.addObserver(screen) }
    // The main actor is busy: both broadcasts wait, and go in one batch.
    onThreadAndWait {
      observers.onMainActor { $0.show(1, from: 1) }
      observers.addObserver(late)
      observers.onMainActor { $0.show(2, from: 1) }
    }
    // Made before the two waiting are delivered, as it begins.
    observers.onMainActor { $0.show(3, from: 0) }
    observers.onMainActor { $0.show(4, from: 0) }
    #expect(
      log.entries == [
        "first 1", "rearranging 1",  // the victim is removed before its turn
        "first 2", "rearranging 2", "late 2",  // the newcomer came after it was made
        "first 3", "rearranging 3", "late 3",
        "first 4", "rearranging 4", "late 4", "newcomer 4",
      ])
    withExtendedLifetime((first, victim, newcomer, late, rearranging)) {}
  }

  @Test("An observer's broadcast during a delivery goes after the queued ones, in order")
  func nestedBroadcastIsQueued() {
    let log = Log()
    let observers = MulticastDelegate<any Screen>()
    let screen = NestingScreen(observers: observers, log: log)
    observers.addObserver(screen)
    observers.onMainActor { $0.show(1, from: 0) }
    #expect(log.entries == ["1", "after the nested broadcast", "10"])
    withExtendedLifetime(screen) {}
  }

  @Test(
    "Many producers on tasks and threads: each observer gets every broadcast once, each producer's in order"
  )
  func manyProducers() async {
    let observers = MulticastDelegate<any Screen>()
    let stable = (0..<3).map { RecordingScreen("stable \($0)") }
    for screen in stable { observers.addObserver(screen) }
    let (producers, perProducer) = (6, 17_000)

    // Observers come and go on the main actor while the broadcasts arrive.
    let churn = Task { @MainActor in
      var transient: [RecordingScreen] = []
      for round in 0..<150 {
        let screen = RecordingScreen()
        observers.addObserver(screen)
        transient.append(screen)
        if round % 3 != 0 { observers.removeObserver(transient.removeFirst()) }
        await Task.yield()
      }
      return transient
    }
    await withTaskGroup(of: Void.self) { group in
      for id in 0..<producers {
        if id.isMultiple(of: 2) {
          group.addTask { await Producer(id: id, observers: observers).send(0..<perProducer) }
        } else {
          group.addTask {
            await onNewThread {
              for value in 0..<perProducer { observers.onMainActor { $0.show(value, from: id) } }
            }
          }
        }
      }
    }
    let transient = await churn.value
    for screen in stable { await screen.waitUntilShown(producers * perProducer) }

    for screen in stable + transient {
      var last = Array(repeating: -1, count: producers)
      var inOrder = true
      for (producer, value) in screen.shown {
        inOrder = inOrder && value > last[producer]
        last[producer] = value
      }
      #expect(inOrder, "a producer's broadcasts reached an observer out of order or twice")
    }
    for screen in stable {
      #expect(screen.shown.count == producers * perProducer)
    }
  }
}

/// An observer that, shown 1, removes one observer and adds another.
@MainActor
final class RearrangingScreen: Screen {
  let observers: MulticastDelegate<any Screen>
  let (victim, newcomer): (any Screen, any Screen)
  let log: Log

  init(
    observers: MulticastDelegate<any Screen>, removing victim: any Screen,
    adding newcomer: any Screen, log: Log
  ) {
    (self.observers, self.victim, self.newcomer, self.log) = (observers, victim, newcomer, log)
  }

  func show(_ value: Int, from producer: Int) {
    log.append("rearranging \(value)")
    if value == 1 {
      observers.removeObserver(victim)
      observers.addObserver(newcomer)
    }
  }
}

/// An observer that broadcasts again the first time it is shown a value.
@MainActor
final class NestingScreen: Screen {
  let observers: MulticastDelegate<any Screen>
  let log: Log

  init(observers: MulticastDelegate<any Screen>, log: Log) {
    self.observers = observers
    self.log = log
  }

  func show(_ value: Int, from producer: Int) {
    log.append("\(value)")
    if value == 1 {
      observers.onMainActor { $0.show(10, from: 0) }
      log.append("after the nested broadcast")
    }
  }
}
