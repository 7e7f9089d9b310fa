// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// A global actor of the tests' own, as an app has for its index or its
/// database.
@globalActor
actor Indexer {
  static let shared = Indexer()
}

/// A second one, so that one producer broadcasts to two custom actors.
@globalActor
actor Journal {
  static let shared = Journal()
}

/// Observers that live on the `Indexer`.
@Indexer
protocol IndexListener: AnyObject, Sendable {
  func note(_ delivery: Delivery)
}

/// Observers that live on the `Journal`.
@Journal
protocol JournalListener: AnyObject, Sendable {
  func note(_ delivery: Delivery)
}

/// An `Indexer` observer that records what it hears, checking where it hears it.
@Indexer
final class IndexRecorder: IndexListener {
  private(set) var received: [Delivery] = []

  func note(_ delivery: Delivery) {
    // The compiler trusts the library to call this on the Indexer: check.
    Indexer.preconditionIsolated("an Indexer observer was called off the Indexer")
    received.append(delivery)
  }
}

/// A `Journal` observer that records what it hears, checking where it hears it.
@Journal
final class JournalRecorder: JournalListener {
  private(set) var received: [Delivery] = []

  func note(_ delivery: Delivery) {
    Journal.preconditionIsolated("a Journal observer was called off the Journal")
    received.append(delivery)
  }
}

/// Observers that live on no actor.
protocol Accumulating: AnyObject, Sendable {
  func add(_ value: Int)
}

final class Accumulator: Accumulating {
  let values = Locked<[Int]>([])
  func add(_ value: Int) { values.withLock { $0.append(value) } }
}

extension MulticastDelegate where Observer == any IndexListener {
  /// Returns once every broadcast queued for the `Indexer` before this call
  /// has been delivered: it waits for one more, queued behind them, to
  /// reach `keeper`, which must be registered.
  func drained(through keeper: IndexRecorder) async {
    await withCheckedContinuation { done in
      onActor { @Indexer in if $0 === keeper { done.resume() } }
    }
  }
}

extension MulticastDelegate where Observer == any JournalListener {
  /// Returns once every broadcast queued for the `Journal` before this call
  /// has been delivered.
  func drained(through keeper: JournalRecorder) async {
    await withCheckedContinuation { done in
      onActor { @Journal in if $0 === keeper { done.resume() } }
    }
  }
}

extension MulticastDelegate where Observer == any Screen {
  /// Returns once every broadcast queued for the main actor before this call
  /// has been delivered.
  func drained(through keeper: some Screen) async {
    await withCheckedContinuation { done in
      onMainActor { if $0 === keeper { done.resume() } }
    }
  }
}

@Suite("Delivery on a custom actor")
struct ActorDeliveryTests {
  @Test("Broadcasts from other isolations reach a custom actor's observers there, in order")
  func fromElsewhere() async {
    let observers = MulticastDelegate<any IndexListener>()
    let recorder = IndexRecorder()
    observers.addObserver(recorder)
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for value in 0..<500 {
          observers.onActor { @Indexer in $0.note(.init(producer: 0, value: value)) }
        }
      }
      group.addTask {
        await onNewThread {
          for value in 0..<500 {
            observers.onActor { @Indexer in $0.note(.init(producer: 1, value: value)) }
          }
        }
      }
    }
    await observers.drained(through: recorder)
    let received = await recorder.received
    #expect(deliveryProblems(received, window: .always(producers: 2, count: 500)) == [])
  }

  @Test("A broadcast made on the observers' actor is queued too, not delivered before it returns")
  @Indexer
  func queuedOnItsOwnActor() async {
    let observers = MulticastDelegate<any IndexListener>()
    let recorder = IndexRecorder()
    observers.addObserver(recorder)
    observers.onActor { @Indexer in $0.note(.init(producer: 0, value: 1)) }
    #expect(recorder.received.isEmpty)
    await observers.drained(through: recorder)
    #expect(recorder.received == [.init(producer: 0, value: 1)])
  }

  @Test("A queued broadcast keeps no observer alive and skips those removed before their turn")
  @Indexer
  func weakWhileQueued() async {
    let observers = MulticastDelegate<any IndexListener>()
    let (kept, removed) = (IndexRecorder(), IndexRecorder())
    var released: IndexRecorder? = IndexRecorder()
    weak let watched = released
    for recorder in [kept, removed, released!] { observers.addObserver(recorder) }
    // Made on the Indexer, so it waits until this test suspends.
    observers.onActor { @Indexer in $0.note(.init(producer: 0, value: 1)) }
    observers.removeObserver(removed)
    released = nil
    #expect(watched == nil, "a queued broadcast kept an observer alive")
    let late = IndexRecorder()
    observers.addObserver(late)
    observers.onActor { @Indexer in $0.note(.init(producer: 0, value: 2)) }
    await observers.drained(through: kept)
    #expect(kept.received.map(\.value) == [1, 2])
    #expect(removed.received.isEmpty)
    #expect(late.received.map(\.value) == [2], "a broadcast reached an observer added after it")
    #expect(observers.waitingBroadcastCount == 0)
  }

  @Test("Broadcasts queued when the subject lets its observers go are still delivered")
  @Indexer
  func outlivesItsSubject() async {
    let recorder = IndexRecorder()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let observers = MulticastDelegate<any IndexListener>()
      observers.addObserver(recorder)
      observers.onActor { @Indexer in $0.note(.init(producer: 0, value: 1)) }
      observers.onActor { @Indexer _ in done.resume() }
    }
    #expect(recorder.received.map(\.value) == [1])
  }

  @Test("A body isolated to no actor is delivered in order, on no actor")
  func nonisolatedBody() async {
    let observers = MulticastDelegate<any Accumulating>()
    let tally = Accumulator()
    observers.addObserver(tally)
    for value in 0..<1_000 { observers.onActor { $0.add(value) } }
    await withCheckedContinuation { done in observers.onActor { _ in done.resume() } }
    #expect(tally.values.withLock { $0 } == Array(0..<1_000))
    withExtendedLifetime(tally) {}
  }
}

/// A main-actor observer that records what it is shown; made anywhere.
@MainActor
final class ScreenRecorder: Screen {
  private(set) var received: [Delivery] = []

  nonisolated init() {}

  func show(_ value: Int, from producer: Int) {
    MainActor.preconditionIsolated("a main-actor observer was called off the main actor")
    received.append(Delivery(producer: producer, value: value))
  }
}

/// Observers of the three actors, added together and removed together, and
/// what the producers had done around their registration.
typealias Registration = (
  screen: ScreenRecorder, indexer: IndexRecorder, journal: JournalRecorder,
  window: RegistrationWindow
)

@Suite("Delivery to several actors under load")
struct ManyActorsDeliveryTests {
  @Test(
    "Producers on tasks and threads broadcast to the main actor and two custom actors while observers come and go: each observer gets the broadcasts made while it was registered (up to its removal), each producer's in order, once"
  )
  func manyProducersManyActors() async {
    let (producers, perProducer) = (6, 6_000)
    let screens = MulticastDelegate<any Screen>()
    let indexers = MulticastDelegate<any IndexListener>()
    let journals = MulticastDelegate<any JournalListener>()
    let always: Registration = (
      ScreenRecorder(), IndexRecorder(), JournalRecorder(),
      .always(producers: producers, count: perProducer)
    )
    screens.addObserver(always.screen)
    indexers.addObserver(always.indexer)
    journals.addObserver(always.journal)
    // What each producer has broadcast so far: the last value, once all
    // three of its broadcasts returned.
    let progress = Locked(Array(repeating: -1, count: producers))

    // Each producer also adds observers as it goes, and removes the older
    // ones, so that they come and go while broadcasts are made and queued.
    let produce: @Sendable (Int) -> [Registration] = { id in
      var registrations: [Registration] = []
      var live: [Registration] = []
      for value in 0..<perProducer {
        if value.isMultiple(of: 300) {
          let (screen, indexer, journal) = (ScreenRecorder(), IndexRecorder(), JournalRecorder())
          let beforeAdding = progress.withLock { $0 }
          screens.addObserver(screen)
          indexers.addObserver(indexer)
          journals.addObserver(journal)
          let afterAdding = progress.withLock { $0 }
          live.append(
            (
              screen, indexer, journal,
              RegistrationWindow(
                beforeAdding: beforeAdding, afterAdding: afterAdding,
                beforeRemoving: [], afterRemoving: [], wasRemoved: false)
            ))
          if live.count > 3 || value.isMultiple(of: 900) {
            var removed = live.removeFirst()
            removed.window.beforeRemoving = progress.withLock { $0 }
            screens.removeObserver(removed.screen)
            indexers.removeObserver(removed.indexer)
            journals.removeObserver(removed.journal)
            removed.window.afterRemoving = progress.withLock { $0 }
            removed.window.wasRemoved = true
            registrations.append(removed)
          }
        }
        screens.onMainActor { $0.show(value, from: id) }
        indexers.onActor { @Indexer in $0.note(.init(producer: id, value: value)) }
        journals.onActor { @Journal in $0.note(.init(producer: id, value: value)) }
        progress.withLock { $0[id] = value }
      }
      // Those still registered stay so to the end.
      let last = Array(repeating: perProducer - 1, count: producers)
      for var registration in live {
        (registration.window.beforeRemoving, registration.window.afterRemoving) = (last, last)
        registrations.append(registration)
      }
      return registrations
    }

    weak var someScreen: ScreenRecorder?
    weak var someIndexer: IndexRecorder?
    weak var someJournal: JournalRecorder?
    do {
      let registrations = await withTaskGroup(of: [Registration].self) { group in
        for id in 0..<producers {
          if id.isMultiple(of: 2) {
            group.addTask { produce(id) }
          } else {
            group.addTask { await onNewThread { produce(id) } }
          }
        }
        return await group.reduce(into: [always]) { $0 += $1 }
      }
      await screens.drained(through: always.screen)
      await indexers.drained(through: always.indexer)
      await journals.drained(through: always.journal)

      var problems: [String] = []
      for (number, registration) in registrations.enumerated() {
        let window = registration.window
        for (actor, received) in [
          ("main actor", await registration.screen.received),
          ("Indexer", await registration.indexer.received),
          ("Journal", await registration.journal.received),
        ] {
          problems += deliveryProblems(received, window: window).map {
            "observer \(number) on the \(actor): \($0)"
          }
        }
      }
      let problemCount = problems.count
      #expect(problemCount == 0, "\(problems.prefix(10).joined(separator: "\n"))")
      #expect(registrations.count > 100, "too few observers came and went")

      // Nothing is left queued, and nothing keeps the observers once the
      // test lets them go; no buffer is left retired.
      #expect(screens.waitingBroadcastCount == 0)
      #expect(indexers.waitingBroadcastCount == 0)
      #expect(journals.waitingBroadcastCount == 0)
      (someScreen, someIndexer, someJournal) = (
        registrations.last?.screen, registrations.last?.indexer, registrations.last?.journal
      )
    }
    #expect(someScreen == nil && someIndexer == nil && someJournal == nil)
    #expect(screens.retiredBufferCount == 0)
    #expect(indexers.retiredBufferCount == 0)
    #expect(journals.retiredBufferCount == 0)
  }
}
