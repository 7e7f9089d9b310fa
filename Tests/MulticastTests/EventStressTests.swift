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

/// One subscription a churner made: what it has heard, and how to end it.
struct Churned {
  let heard: () -> [Delivery]
  let end: () -> Void
}

/// Subscribes and ends subscriptions on the caller's isolation while the
/// producers run, and returns what each heard, with its window.
///
/// `subscribe` makes round `n`'s subscription; three at a time stay
/// subscribed. It goes on for sixteen rounds at least, however soon the
/// producers finish: a busy actor may start churning late. Once they have,
/// it waits for what is queued for this isolation, and `flush` sends from
/// there.
func churn(
  _ production: Production, isolation: isolated (any Actor)? = #isolation,
  subscribe: (Int) -> Churned, flush: () -> Void
) async -> [HeardWindow] {
  var ended: [HeardWindow] = []
  var live: [(churned: Churned, window: RegistrationWindow)] = []
  var round = 0
  while !production.isFinished || round < 16 {
    let before = production.snapshot
    live.append((subscribe(round), opening(before, production.snapshot)))
    if live.count > 3 {
      var (churned, window) = live.removeFirst()
      window.beforeRemoving = production.snapshot
      churned.end()
      window.afterRemoving = production.snapshot
      window.wasRemoved = true
      ended.append(HeardWindow(received: churned.heard(), window: window))
    }
    if round == 0 { production.churnStarted() }
    round += 1
    await Task.yield()
  }
  await waitForDeliveries()
  flush()
  for (churned, var window) in live {
    (window.beforeRemoving, window.afterRemoving) = (production.last, production.last)
    ended.append(HeardWindow(received: churned.heard(), window: window))
    churned.end()
  }
  return ended
}

/// Holds an object until it is let go.
final class Holder<Object: AnyObject> {
  var object: Object?
  init(_ object: Object) { self.object = object }
}

/// Churns on the main actor.
///
/// Closure subscriptions, cancelled to end them, and target subscriptions,
/// ended by releasing the target, come in turn. Released targets must hear
/// nothing more, and be gone once the deliveries are over.
@MainActor
func churnOnMainActor(
  _ sender: EventSender<Delivery>, _ production: Production
) async -> [HeardWindow] {
  var released: [(target: Weak<MainDeliveries>, log: MainDeliveryLog)] = []
  var heardWhenReleased: [Int] = []
  let ended = await churn(production) { round in
    let holder = Holder(MainDeliveries())
    let log = holder.object!.log
    if round.isMultiple(of: 2) {
      let subscription = sender.event.observe { [deliveries = holder.object!] in
        deliveries.hear($0)
      }
      return Churned(heard: { log.received }, end: { subscription.cancel() })
    }
    sender.event.observe(holder.object!, MainDeliveries.hear)
    return Churned(heard: { log.received }) {
      // Nothing reaches the main actor's subscribers until the churn
      // awaits, so what they heard so far is all they may hear.
      released.append((Weak(holder.object!), log))
      heardWhenReleased.append(log.received.count)
      holder.object = nil
    }
  } flush: {
    // A send from the main actor delivers everything queued for it first.
    sender.send(Delivery(producer: -1, value: 0))
  }
  let lateCalls = zip(released, heardWhenReleased).count { $0.log.received.count != $1 }
  #expect(lateCalls == 0, "\(lateCalls) released targets were called")
  let kept = released.count { $0.target.object != nil }
  #expect(kept == 0, "\(kept) released targets are still alive")
  #expect(released.count > 4, "too few targets were released: \(released.count)")
  return ended
}

/// Churns on the `Indexer`, a custom global actor.
@Indexer
func churnOnIndexer(
  _ sender: EventSender<Delivery>, _ production: Production
) async -> [HeardWindow] {
  await churn(production) { _ in
    let deliveries = IndexerDeliveries()
    let subscription = sender.event.observe { deliveries.hear($0) }
    return Churned(heard: { deliveries.received }, end: { subscription.cancel() })
  } flush: {
    sender.send(Delivery(producer: -1, value: 0))
  }
}

/// Churns on an actor instance, with closures that touch its own state.
actor ChurningActor {
  private var received: [Int: [Delivery]] = [:]

  func churn(_ sender: EventSender<Delivery>, _ production: Production) async -> [HeardWindow] {
    await MulticastTests.churn(production) { number in
      received[number] = []
      // A closure capturing the actor, and the actor as a weak target (which
      // lasts while the actor does, unless cancelled), in turn.
      let subscription =
        number.isMultiple(of: 2)
        ? sender.event.observe { delivery in
          self.preconditionIsolated("an actor's subscriber was called off the actor")
          self.received[number, default: []].append(delivery)
        }
        : sender.event.observe(actor: self) { churner, delivery in
          churner.preconditionIsolated("an actor's subscriber was called off the actor")
          churner.received[number, default: []].append(delivery)
        }
      return Churned(heard: { self.received[number] ?? [] }, end: { subscription.cancel() })
    } flush: {
      sender.send(Delivery(producer: -1, value: 0))
    }
  }
}

/// Churns where no actor is: the handlers run on the producers' threads, one
/// at a time.
func churnWithoutActor(
  _ sender: EventSender<Delivery>, _ production: Production
) async -> [HeardWindow] {
  await churn(production) { _ in
    let received = Locked<[Delivery]>([])
    let subscription = sender.event.observe { delivery in
      received.withLock { $0.append(delivery) }
    }
    return Churned(heard: { received.withLock { $0 } }, end: { subscription.cancel() })
  } flush: {
  }
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
    // A churner's last send, made after the others' last wait, may still be
    // on its way to their actors: nothing is left once it has arrived.
    await waitForDeliveries()
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
    // Wait on each actor for what is queued there, then set the value there,
    // which is delivered at once.
    let final = level.value
    let mainChanges = await Self.flushOnMainActor(level, final, onMain.0)
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
      let values = assignments.map { $0.new - id * 1_000_000 }.filter {
        (0..<1_000_000).contains($0)
      }
      let misplaced = values.enumerated().first { $0.offset != $0.element }
      #expect(
        values.count == perProducer && misplaced == nil,
        "producer \(id): \(values.count) assignments heard; at \(misplaced?.offset ?? -1), \(misplaced?.element ?? -1)"
      )
    }
    withExtendedLifetime((onMain.1, onIndexer.1, subscription)) {}
  }

  @Indexer
  static func observeOnIndexer(_ level: ObservableValue<Int>) -> (IndexerChanges, EventSubscription)
  {
    let changes = IndexerChanges()
    return (changes, level.observe { changes.changes.append(Change(old: $0, new: $1)) })
  }

  @Indexer
  static func flush(_ level: ObservableValue<Int>, _ value: Int, _ changes: IndexerChanges) async
    -> [Change]
  {
    await waitForDeliveries()
    level.set(value)
    return changes.changes
  }

  @MainActor
  static func flushOnMainActor(
    _ level: ObservableValue<Int>, _ value: Int, _ changes: MainChanges
  ) async -> [Change] {
    await waitForDeliveries()
    level.set(value)
    return changes.changes
  }
}

/// What a target heard, kept apart from the target so that it can be read
/// after the target is gone.
final class TargetLog: Sendable {
  let received = Locked<[Delivery]>([])
  let isReleased = Locked(false)
}

/// A target that records what it hears, and its release, in a log that
/// outlives it.
final class LoggingTarget: Sendable {
  let log: TargetLog
  init(_ log: TargetLog) { self.log = log }
  deinit { log.isReleased.withLock { $0 = true } }
}

@Suite("An event's only destination under load")
struct SoleLaneStressTests {
  @Test(
    "Threads send while another subscribes targets where no actor is and lets them go, so that the event's only destination is dropped and made again and again: each target hears each producer in order, once, and is released; the destination goes with the last"
  )
  func soleDestinationMadeAndDropped() async {
    let (producers, targets) = (2, 2_000)
    let sender = EventSender<Delivery>()
    let sent = Locked(0)
    let churned = Locked(false)
    let logs = await withTaskGroup(of: [TargetLog].self) { group in
      for id in 0..<producers {
        group.addTask {
          await onNewThread {
            // Until every target has come and gone.
            var value = 0
            while !churned.withLock({ $0 }) {
              sender.send(Delivery(producer: id, value: value))
              sent.withLock { $0 += 1 }
              value += 1
            }
            return []
          }
        }
      }
      group.addTask {
        await onNewThread {
          var logs: [TargetLog] = []
          for _ in 0..<targets {
            let log = TargetLog()
            let target = LoggingTarget(log)
            sender.event.observe(target) { target, delivery in
              target.log.received.withLock { $0.append(delivery) }
            }
            logs.append(log)
            // Let a few sends happen while the target lives, and, since a
            // send may return with its value still queued (another thread
            // delivers it, or a drain task), until it heard one or 200 went
            // by; it goes at the end of this round, and the sweep that
            // meets it, dead, drops the destination with it.
            let subscribed = sent.withLock { $0 }
            while sent.withLock({ $0 }) < subscribed + 2
              || (log.received.withLock({ $0.isEmpty }) && sent.withLock({ $0 }) < subscribed + 200)
            {}
          }
          churned.withLock { $0 = true }
          return logs
        }
      }
      return await group.reduce(into: []) { $0 += $1 }
    }

    var problems: [String] = []
    for (number, log) in logs.enumerated() {
      var last = Array(repeating: -1, count: producers)
      for delivery in log.received.withLock({ $0 }) {
        if delivery.value <= last[delivery.producer] {
          problems.append(
            "target \(number) heard \(delivery.value) of producer \(delivery.producer) after \(last[delivery.producer])"
          )
        }
        last[delivery.producer] = delivery.value
      }
    }
    #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
    #expect(logs.count == targets)
    // A delivery under way holds its target until it returns: now that
    // every send has returned, every target is gone.
    let alive = logs.count { !$0.isReleased.withLock { $0 } }
    #expect(alive == 0, "\(alive) released targets are still alive")
    let heard = logs.count { !$0.received.withLock { $0 }.isEmpty }
    // How many hear anything depends on the threads' timing (a send may
    // return before another thread delivers it, to a target gone by then);
    // none would mean the destination was never delivered while targets came and
    // went.
    #expect(heard > 0, "none of \(targets) targets heard anything")
    // Every target is gone: one more send finds no one and drops the destination.
    sender.send(Delivery(producer: 0, value: Int.max))
    #expect(sender.core.destinationsForTesting.isEmpty)
    #expect(!sender.hasObservers)
  }
}
