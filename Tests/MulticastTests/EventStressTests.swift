// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// What one subscription heard, and when it was subscribed and ended.
struct HeardWindow: Sendable {
  var received: [Delivery]
  var window: RegistrationWindow
}

/// The progress of every producer, and whether all have finished: what a
/// subscriber reads around subscribing and ending, for its window.
final class Production: Sendable {
  let progress: Locked<[Int]>
  let finished = Locked(false)
  let count: Int
  /// Yields once per subscriber that has made its first subscription: the
  /// producers start when all have, so that subscriptions come and go while
  /// they send.
  let churning: AsyncStream<Void>
  private let churned: AsyncStream<Void>.Continuation

  init(producers: Int, count: Int) {
    progress = Locked(Array(repeating: -1, count: producers))
    self.count = count
    (churning, churned) = AsyncStream.makeStream()
  }

  /// Tells the producers that one more subscriber is under way.
  func churnStarted() { churned.yield() }

  /// Returns once `subscribers` have called ``churnStarted()``.
  func awaitChurn(of subscribers: Int) async {
    var started = 0
    for await _ in churning {
      started += 1
      if started == subscribers { return }
    }
  }

  var snapshot: [Int] { progress.withLock { $0 } }
  var last: [Int] { Array(repeating: count - 1, count: progress.withLock { $0.count }) }
  var isFinished: Bool { finished.withLock { $0 } }
}

/// A window being built: its first two readings.
private func opening(_ before: [Int], _ after: [Int]) -> RegistrationWindow {
  RegistrationWindow(
    beforeAdding: before, afterAdding: after, beforeRemoving: [], afterRemoving: [],
    wasRemoved: false)
}

/// What a main-actor subscriber heard: main-actor state, kept apart from
/// the subscriber so that it can be read after the subscriber is gone.
@MainActor
final class MainDeliveryLog {
  var received: [Delivery] = []
}

/// A weak reference, to tell later whether an object is gone.
struct Weak<Object: AnyObject> {
  weak var object: Object?
  init(_ object: Object) { self.object = object }
}

/// A main-actor subscriber.
@MainActor
final class MainDeliveries {
  let log = MainDeliveryLog()

  func hear(_ delivery: Delivery) {
    MainActor.preconditionIsolated("a main-actor subscriber was called off the main actor")
    log.received.append(delivery)
  }
}

/// What an `Indexer` subscriber heard.
@Indexer
final class IndexerDeliveries {
  var received: [Delivery] = []

  func hear(_ delivery: Delivery) {
    Indexer.preconditionIsolated("an Indexer subscriber was called off the Indexer")
    received.append(delivery)
  }
}

/// Subscribes and ends subscriptions on the main actor while the producers
/// run.
///
/// It makes closure subscriptions, which it cancels, and target
/// subscriptions, whose targets it releases, in turn. Returns what each
/// heard, once `sender`, sent from here, has delivered everything queued for
/// the main actor.
@MainActor
func churnOnMainActor(
  _ sender: EventSender<Delivery>, _ production: Production
) async -> [HeardWindow] {
  var ended: [HeardWindow] = []
  var live:
    [(deliveries: MainDeliveries, subscription: Subscription?, window: RegistrationWindow)] = []
  // Released targets, with what they heard until then: they must hear
  // nothing more, and be gone once the deliveries are over.
  var released: [(target: Weak<MainDeliveries>, log: MainDeliveryLog, heard: Int)] = []
  var round = 0
  // Sixteen rounds at least, however soon the producers finish: a busy
  // actor may start churning late.
  while !production.isFinished || round < 16 {
    let deliveries = MainDeliveries()
    let before = production.snapshot
    // Closure subscriptions in even rounds, cancelled to end them; target
    // subscriptions in odd ones, ended by releasing the target, which only
    // `live` holds.
    var subscription: Subscription?
    if round.isMultiple(of: 2) {
      subscription = sender.event.observe { deliveries.hear($0) }
    } else {
      sender.event.observe(deliveries, MainDeliveries.hear)
    }
    live.append((deliveries, subscription, opening(before, production.snapshot)))
    if live.count > 3 {
      var window = live[0].window
      window.beforeRemoving = production.snapshot
      // Nothing reaches the main actor's subscribers until this function
      // awaits, so what they heard so far is all they hear.
      let log = live[0].deliveries.log
      let heard = log.received
      if live[0].subscription == nil {
        released.append((Weak(live[0].deliveries), log, heard.count))
      }
      live[0].subscription?.cancel()
      live.removeFirst()
      window.afterRemoving = production.snapshot
      window.wasRemoved = true
      ended.append(HeardWindow(received: heard, window: window))
    }
    if round == 0 { production.churnStarted() }
    round += 1
    await Task.yield()
  }
  // A send from the main actor delivers everything queued for it first.
  sender.send(Delivery(producer: -1, value: 0))
  let lateCalls = released.count { $0.log.received.count != $0.heard }
  #expect(lateCalls == 0, "\(lateCalls) released targets were called")
  let kept = released.count { $0.target.object != nil }
  #expect(kept == 0, "\(kept) released targets are still alive")
  #expect(released.count > 4, "too few targets were released: \(released.count)")
  for (deliveries, subscription, var window) in live {
    (window.beforeRemoving, window.afterRemoving) = (production.last, production.last)
    ended.append(HeardWindow(received: deliveries.log.received, window: window))
    withExtendedLifetime(subscription) {}
  }
  return ended
}

/// The same on the `Indexer`, a custom global actor.
@Indexer
func churnOnIndexer(
  _ sender: EventSender<Delivery>, _ production: Production
) async -> [HeardWindow] {
  var ended: [HeardWindow] = []
  var live:
    [(deliveries: IndexerDeliveries, subscription: Subscription, window: RegistrationWindow)] = []
  var round = 0
  while !production.isFinished || round < 16 {
    let deliveries = IndexerDeliveries()
    let before = production.snapshot
    let subscription = sender.event.observe { deliveries.hear($0) }
    live.append((deliveries, subscription, opening(before, production.snapshot)))
    if live.count > 3 {
      var (deliveries, subscription, window) = live.removeFirst()
      window.beforeRemoving = production.snapshot
      subscription.cancel()
      window.afterRemoving = production.snapshot
      window.wasRemoved = true
      ended.append(HeardWindow(received: deliveries.received, window: window))
    }
    if round == 0 { production.churnStarted() }
    round += 1
    await Task.yield()
  }
  sender.send(Delivery(producer: -1, value: 0))
  for (deliveries, subscription, var window) in live {
    (window.beforeRemoving, window.afterRemoving) = (production.last, production.last)
    ended.append(HeardWindow(received: deliveries.received, window: window))
    withExtendedLifetime(subscription) {}
  }
  return ended
}

/// The same on an actor instance, with closures that touch its own state.
actor ChurningActor {
  private var received: [Int: [Delivery]] = [:]

  func churn(_ sender: EventSender<Delivery>, _ production: Production) async -> [HeardWindow] {
    var ended: [HeardWindow] = []
    var live: [(number: Int, subscription: Subscription, window: RegistrationWindow)] = []
    var round = 0
    while !production.isFinished || round < 16 {
      let number = round
      received[number] = []
      let before = production.snapshot
      // A closure capturing the actor, and the actor as a weak target, in
      // turn.
      let subscription =
        round.isMultiple(of: 2)
        ? sender.event.observe { delivery in
          self.preconditionIsolated("an actor's subscriber was called off the actor")
          self.received[number, default: []].append(delivery)
        }
        : sender.event.observe(actor: self) { churner, delivery in
          churner.preconditionIsolated("an actor's subscriber was called off the actor")
          churner.received[number, default: []].append(delivery)
        }
      live.append((number, subscription, opening(before, production.snapshot)))
      if live.count > 3 {
        var (number, subscription, window) = live.removeFirst()
        window.beforeRemoving = production.snapshot
        subscription.cancel()
        window.afterRemoving = production.snapshot
        window.wasRemoved = true
        ended.append(HeardWindow(received: received[number] ?? [], window: window))
      }
      if round == 0 { production.churnStarted() }
      round += 1
      await Task.yield()
    }
    sender.send(Delivery(producer: -1, value: 0))
    for (number, subscription, var window) in live {
      (window.beforeRemoving, window.afterRemoving) = (production.last, production.last)
      ended.append(HeardWindow(received: received[number] ?? [], window: window))
      // A subscription bound to this actor lasts while it does: end it.
      subscription.cancel()
    }
    return ended
  }
}

/// The same where no actor is: the handlers run on the producers' threads,
/// one at a time.
func churnWithoutActor(
  _ sender: EventSender<Delivery>, _ production: Production
) async -> [HeardWindow] {
  var ended: [HeardWindow] = []
  var live:
    [(received: Locked<[Delivery]>, subscription: Subscription, window: RegistrationWindow)] = []
  var round = 0
  while !production.isFinished || round < 16 {
    let received = Locked<[Delivery]>([])
    let before = production.snapshot
    let subscription = sender.event.observe { delivery in
      received.withLock { $0.append(delivery) }
    }
    live.append((received, subscription, opening(before, production.snapshot)))
    if live.count > 3 {
      var (received, subscription, window) = live.removeFirst()
      window.beforeRemoving = production.snapshot
      subscription.cancel()
      window.afterRemoving = production.snapshot
      window.wasRemoved = true
      ended.append(HeardWindow(received: received.withLock { $0 }, window: window))
    }
    if round == 0 { production.churnStarted() }
    round += 1
    await Task.yield()
  }
  for (received, subscription, var window) in live {
    (window.beforeRemoving, window.afterRemoving) = (production.last, production.last)
    ended.append(HeardWindow(received: received.withLock { $0 }, window: window))
    withExtendedLifetime(subscription) {}
  }
  return ended
}

/// What an observer of the same observable value heard, on one isolation.
@MainActor
final class MainChanges {
  var changes: [Change] = []
}

@Indexer
final class IndexerChanges {
  var changes: [Change] = []
}

@Suite("Events and observable values under load")
struct EventStressTests {
  @Test(
    "Producers on tasks and threads send to subscribers on the main actor, a custom global actor, an actor instance and no actor, which come and go: each hears what was sent while it was subscribed (up to its end), each producer's in order, once"
  )
  func manySendersManyIsolations() async {
    let (producers, perProducer) = (4, 5_000)
    let sender = EventSender<Delivery>()
    let production = Production(producers: producers, count: perProducer)
    let instance = ChurningActor()

    async let onMain = churnOnMainActor(sender, production)
    async let onIndexer = churnOnIndexer(sender, production)
    async let onInstance = instance.churn(sender, production)
    async let withoutActor = churnWithoutActor(sender, production)
    await production.awaitChurn(of: 4)
    await withTaskGroup(of: Void.self) { group in
      for id in 0..<producers {
        let send: @Sendable (Int) -> Void = { value in
          sender.send(Delivery(producer: id, value: value))
          production.progress.withLock { $0[id] = value }
        }
        if id.isMultiple(of: 2) {
          group.addTask {
            for value in 0..<perProducer {
              send(value)
              // Leave the subscribers' actors room to run on two cores.
              if value.isMultiple(of: 64) { await Task.yield() }
            }
          }
        } else {
          group.addTask { await onNewThread { for value in 0..<perProducer { send(value) } } }
        }
      }
    }
    production.finished.withLock { $0 = true }

    var problems: [String] = []
    for (isolation, heard) in [
      ("main actor", await onMain), ("Indexer", await onIndexer),
      ("actor instance", await onInstance), ("no actor", await withoutActor),
    ] {
      #expect(heard.count > 8, "too few subscriptions came and went on the \(isolation)")
      for (number, subscription) in heard.enumerated() {
        problems += deliveryProblems(subscription.received, window: subscription.window).map {
          "subscription \(number) on the \(isolation): \($0)"
        }
      }
    }
    let problemCount = problems.count
    #expect(problemCount == 0, "\(problems.prefix(10).joined(separator: "\n"))")
    #expect(sender.core.waitingCount == 0)
    #expect(!sender.hasObservers)
  }

  @Test(
    "Assignments from tasks and threads reach observers on every isolation as one chain: each change's old value is the one before's new value, every assignment once, each producer's in order"
  )
  func observableValueChain() async {
    let (producers, perProducer) = (4, 3_000)
    let level = ObservableValue(-1)
    let onMain = await MainActor.run {
      let changes = MainChanges()
      return (changes, level.observe { changes.changes.append(Change(old: $0, new: $1)) })
    }
    let onIndexer = await Self.observeOnIndexer(level)
    let withoutActor = Locked<[Change]>([])
    let subscription = level.observe { old, new in
      withoutActor.withLock { $0.append(Change(old: old, new: new)) }
    }

    await withTaskGroup(of: Void.self) { group in
      for id in 0..<producers {
        let produce: @Sendable () -> Void = {
          for value in 0..<perProducer { level.value = id * 1_000_000 + value }
        }
        if id.isMultiple(of: 2) {
          group.addTask { produce() }
        } else {
          group.addTask { await onNewThread(produce) }
        }
      }
    }
    // Set on each actor: delivers what is queued there first.
    let final = level.value
    let mainChanges = await MainActor.run {
      level.set(final)
      return onMain.0.changes
    }
    let indexerChanges = await Self.flush(level, final, onIndexer.0)
    let plainChanges = withoutActor.withLock { $0 }

    // One chain, the same for all, ending in the two flushes; the main
    // actor's was read before the Indexer's flush.
    for (isolation, changes, expected) in [
      ("main actor", mainChanges, Array(plainChanges.dropLast())),
      ("Indexer", indexerChanges, plainChanges),
    ] {
      let difference = zip(changes, expected).enumerated().first { $1.0 != $1.1 }?.offset
      #expect(
        changes.count == expected.count && difference == nil,
        """
        the \(isolation) heard \(changes.count) changes, against \(expected.count) where no \
        actor is; first difference at \(difference.map(String.init) ?? "none"): \
        \(difference.map { "\(changes[$0]) against \(expected[$0])" } ?? "")
        """)
    }
    let assignments = plainChanges.dropLast(2)
    #expect(assignments.count == producers * perProducer)
    #expect(assignments.first?.old == -1)
    let breaks = zip(plainChanges, plainChanges.dropFirst()).count { $0.new != $1.old }
    #expect(breaks == 0, "\(breaks) changes did not start where the one before ended")
    for id in 0..<producers {
      let values = assignments.map(\.new).filter { $0 / 1_000_000 == id }
      #expect(values == (0..<perProducer).map { id * 1_000_000 + $0 }, "producer \(id)")
    }
    withExtendedLifetime((onMain.1, onIndexer.1, subscription)) {}
  }

  @Indexer
  static func observeOnIndexer(_ level: ObservableValue<Int>) -> (IndexerChanges, Subscription) {
    let changes = IndexerChanges()
    return (changes, level.observe { changes.changes.append(Change(old: $0, new: $1)) })
  }

  @Indexer
  static func flush(_ level: ObservableValue<Int>, _ value: Int, _ changes: IndexerChanges)
    -> [Change]
  {
    level.set(value)
    return changes.changes
  }
}
