// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

// Two threads make a few calls each on one registry, started together from a
// spin barrier, round after round; each round's history is then checked for
// linearizability against a plain sequential model (LinearizabilityChecker).
// Every observer is kept alive by the test, so each query has exactly one
// right answer at each instant.
//
// Ten times as many histories (see CONTRIBUTING.md for the optimized build):
//   MULTICAST_STRESS=1 swift test --filter Linearizability

/// How many histories each test records: 100,000 in an optimized build, 20,000
/// in a debug build (several times slower, and slower again under the
/// sanitizers), and ten times as many with `MULTICAST_STRESS` set.
private var historyCount: Int {
  #if DEBUG
  let count = 20_000
  #else
  let count = 100_000
  #endif
  return environmentValue("MULTICAST_STRESS") == nil ? count : 10 * count
}

/// The calls each thread makes in a round.
private let callsPerThread = 3

/// The observers a multicast delegate's history names.
private let observerCount = 16

/// One round's history: the registry's initial state, each thread's calls,
/// and what was observed after the round.
struct History<Operation: Sendable & CustomStringConvertible, Setup: Sendable, Outcome: Sendable>:
  Sendable
{
  var setup: Setup
  var threads: [[Call<Operation>]]
  var outcome: Outcome
}

/// Records `rounds` two-thread histories: before each round, `setUp` runs on
/// the first thread while the second waits; then both threads make their
/// calls at once; once both are done, `finish` runs on the first thread.
///
/// - Parameters:
///   - rounds: The number of histories to record.
///   - prepare: Makes a thread's calls for a round, before the round starts.
///   - perform: Makes one call on the given thread; returns its output.
///   - setUp: Puts the registry into a round's initial state.
///   - finish: Reads what the round left, beyond the calls' outputs.
/// - Returns: The histories, in the order they were recorded.
private func recordHistories<Operation, Setup, Outcome>(
  rounds: Int,
  prepare: @escaping @Sendable (_ thread: Int, inout SplitMix64) -> [Operation],
  perform: @escaping @Sendable (_ thread: Int, Operation) -> Int,
  setUp: @escaping @Sendable (inout SplitMix64) -> Setup,
  finish: @escaping @Sendable () -> Outcome
) async -> [History<Operation, Setup, Outcome>] {
  let clock = HistoryClock()
  let barrier = SpinBarrier(parties: 2)

  @Sendable func run(thread: Int) -> [History<Operation, Setup?, Outcome?>] {
    var random = SplitMix64(state: 0x5EED &+ UInt64(thread))
    var histories: [History<Operation, Setup?, Outcome?>] = []
    histories.reserveCapacity(rounds)
    for _ in 0..<rounds {
      let setup = thread == 0 ? setUp(&random) : nil
      let operations = prepare(thread, &random)
      var calls: [Call<Operation>] = []
      calls.reserveCapacity(operations.count)
      barrier.arriveAndWait()
      for operation in operations {
        // A random pause of up to a few dozen nanoseconds before each call
        // varies how the two threads' calls overlap from round to round.
        clock.pause(Int(random.next() % 32))
        let invoked = clock.tick()
        let output = perform(thread, operation)
        calls.append(
          Call(operation: operation, output: output, invoked: invoked, returned: clock.tick()))
      }
      barrier.arriveAndWait()
      histories.append(
        History(setup: setup, threads: [calls], outcome: thread == 0 ? finish() : nil))
    }
    return histories
  }

  async let first = onNewThread { run(thread: 0) }
  async let second = onNewThread { run(thread: 1) }
  let (a, b) = await (first, second)
  return zip(a, b).map { a, b in
    History(setup: a.setup!, threads: a.threads + b.threads, outcome: a.outcome!)
  }
}

/// Prints a history for a failure message.
private func describe<Operation>(_ threads: [[Call<Operation>]]) -> String {
  threads.enumerated().map { thread, calls in
    "thread \(thread == 0 ? "A" : "B"): " + calls.map(\.description).joined(separator: ",  ")
  }.joined(separator: "\n")
}

// MARK: MulticastDelegate

/// A call on a multicast delegate, naming observers by their index.
enum RegistryCall: Sendable, CustomStringConvertible {
  case add(Int), remove(Int), contains(Int), count, isEmpty

  var description: String {
    switch self {
    case .add(let i): "add(\(i))"
    case .remove(let i): "remove(\(i))"
    case .contains(let i): "contains(\(i))"
    case .count: "count"
    case .isEmpty: "isEmpty"
    }
  }
}

/// The contract of a multicast delegate's registrations in its plainest form.
///
/// The registrations are a set; Booleans are returned as 0 and 1.
struct RegistrySpecification: SequentialSpecification {
  var registered: Set<Int>

  mutating func apply(_ call: RegistryCall) -> Int {
    switch call {
    case .add(let i):
      registered.insert(i)
      return 0
    case .remove(let i):
      registered.remove(i)
      return 0
    case .contains(let i): return registered.contains(i) ? 1 : 0
    case .count: return registered.count
    case .isEmpty: return registered.isEmpty ? 1 : 0
    }
  }
}

// MARK: Events

/// A call on an event, naming closure subscriptions by an id and targets by
/// their index.
enum EventCall: Sendable, CustomStringConvertible {
  /// A closure subscription, kept by the thread that makes it.
  case subscribe(id: Int)
  case cancel(id: Int)
  /// A subscription bound to a target.
  case observe(target: Int)
  /// Ends the target's subscriptions; returns how many.
  case removeObservers(target: Int)
  /// `EventSender.hasObservers`, or `Event.hasObservers`.
  case hasObservers(onEvent: Bool)
  case send

  var description: String {
    switch self {
    case .subscribe(let id): "subscribe(#\(id))"
    case .cancel(let id): "cancel(#\(id))"
    case .observe(let target): "observe(target \(target))"
    case .removeObservers(let target): "removeObservers(target \(target))"
    case .hasObservers(let onEvent): onEvent ? "event.hasObservers" : "hasObservers"
    case .send: "send"
    }
  }
}

/// An event's subscriptions as sets, and the owner's notices they imply.
struct EventSpecification: SequentialSpecification {
  var closures: Set<Int>
  var bound: [Int]
  var isObserved: Bool
  /// The transitions between no subscription and some, each of which the
  /// owner must be told of once.
  var transitions = 0

  init(closures: Set<Int>, bound: [Int]) {
    self.closures = closures
    self.bound = bound
    isObserved = !closures.isEmpty || bound.contains { $0 > 0 }
  }

  mutating func apply(_ call: EventCall) -> Int {
    var output = 0
    switch call {
    case .subscribe(let id): closures.insert(id)
    case .cancel(let id): closures.remove(id)
    case .observe(let target): bound[target] += 1
    case .removeObservers(let target): (output, bound[target]) = (bound[target], 0)
    case .hasObservers: output = !closures.isEmpty || bound.contains { $0 > 0 } ? 1 : 0
    case .send: break
    }
    let isObserved = !closures.isEmpty || bound.contains { $0 > 0 }
    if isObserved != self.isObserved {
      self.isObserved = isObserved
      transitions += 1
    }
    return output
  }
}

/// An object that subscriptions are bound to.
final class BoundTarget: Sendable {}

/// The closure subscriptions one thread keeps, by id.
final class Keeper {
  var subscriptions: [Int: EventSubscription] = [:]
}

/// An event sender, shared by the two threads of a history, with what each
/// thread keeps and the owner's notices in order (`true` for the first
/// observer, `false` for the last one gone).
///
/// `EventSender` and `EventSubscription` are not declared `Sendable`: handlers run
/// where values are sent. Here every handler does nothing; each keeper is used
/// by its own thread, or by the first thread while the second waits at the
/// barrier; and the sender's operations all take its storage's lock, which
/// guards its registrations and its notice bookkeeping: that is the claim this
/// test checks from two threads, under ThreadSanitizer in CI.
final class SharedEvent: @unchecked Sendable {
  let sender: EventSender<Int>
  let notices = Locked<[Bool]>([])
  let targets = [BoundTarget(), BoundTarget()]
  let keepers = [Keeper(), Keeper()]

  init() {
    let notices = notices
    sender = EventSender(
      onFirstObserver: { notices.withLock { $0.append(true) } },
      onLastObserverGone: { notices.withLock { $0.append(false) } })
  }
}

@Suite("Linearizability")
struct LinearizabilityTests {
  @Test(
    "count, isEmpty and contains are linearizable with registrations from another thread",
    arguments: Path.allCases)
  func multicastQueries(path: Path) async {
    let delegate = path.make((any Counting).self)
    let observers = (0..<observerCount).map { _ in Counter() }

    let histories = await recordHistories(
      rounds: historyCount,
      prepare: { _, random in
        (0..<callsPerThread).map { _ -> RegistryCall in
          let observer = Int(random.next() % UInt64(observerCount))
          switch random.next() % 5 {
          case 0: return .add(observer)
          case 1: return .remove(observer)
          case 2: return .contains(observer)
          case 3: return .count
          default: return .isEmpty
          }
        }
      },
      perform: { _, call -> Int in
        switch call {
        case .add(let i):
          delegate.addObserver(observers[i])
          return 0
        case .remove(let i):
          delegate.removeObserver(observers[i])
          return 0
        case .contains(let i): return delegate.contains(observers[i]) ? 1 : 0
        case .count: return delegate.count
        case .isEmpty: return delegate.isEmpty ? 1 : 0
        }
      },
      setUp: { random in
        delegate.removeAllObservers()
        let registered = Set((0..<observerCount).filter { _ in random.next() % 4 != 0 })
        for i in registered.sorted() { delegate.addObserver(observers[i]) }
        return registered
      },
      finish: {})

    delegate.checkInvariants()
    let failures = histories.filter { history in
      linearization(
        of: history.threads, from: RegistrySpecification(registered: history.setup)) == nil
    }
    #expect(
      failures.count == 0,
      """
      \(failures.count) of \(histories.count) histories have no linearization; the first:
      initially registered: \(failures.first.map { $0.setup.sorted() } ?? [])
      \(failures.first.map { describe($0.threads) } ?? "")
      """)
  }

  @Test(
    "hasObservers and the owner's notices are linearizable with subscriptions from another thread"
  )
  func eventQueriesAndNotices() async {
    let shared = SharedEvent()

    let histories = await recordHistories(
      rounds: historyCount,
      prepare: { thread, random in
        // What the thread holds as the round goes: it cancels only closure
        // subscriptions of its own.
        var held = thread == 0 ? Set(shared.keepers[0].subscriptions.keys) : []
        var nextID = 100 * (thread + 1)
        return (0..<callsPerThread).map { _ -> EventCall in
          let target = Int(random.next() % 2)
          switch random.next() % 8 {
          case 0, 1:
            held.insert(nextID)
            nextID += 1
            return .subscribe(id: nextID - 1)
          case 2...3 where !held.isEmpty:
            let id = held.sorted()[Int(random.next() % UInt64(held.count))]
            held.remove(id)
            return .cancel(id: id)
          case 4: return .observe(target: target)
          case 5: return .removeObservers(target: target)
          case 6: return .send
          default: return .hasObservers(onEvent: random.next() % 2 == 0)
          }
        }
      },
      perform: { thread, call -> Int in
        let event = shared.sender.event
        switch call {
        case .subscribe(let id):
          shared.keepers[thread].subscriptions[id] = event.observe { _ in }
          return 0
        case .cancel(let id):
          shared.keepers[thread].subscriptions[id]!.cancel()
          return 0
        case .observe(let target):
          event.observe(shared.targets[target]) { _, _ in }
          return 0
        case .removeObservers(let target):
          return event.removeObservers(shared.targets[target])
        case .hasObservers(let onEvent):
          return (onEvent ? event.hasObservers : shared.sender.hasObservers) ? 1 : 0
        case .send:
          shared.sender.send(0)
          return 0
        }
      },
      setUp: { random in
        // End last round's subscriptions first, so that dropping their
        // handles then changes nothing.
        shared.sender.removeAllObservers()
        for keeper in shared.keepers { keeper.subscriptions = [:] }
        let closures = Set((1_000..<1_002).filter { _ in random.next() % 3 == 0 })
        for id in closures {
          shared.keepers[0].subscriptions[id] = shared.sender.event.observe { _ in }
        }
        let bound = (0..<2).map { _ in Int(random.next() % 3) / 2 }
        for (target, count) in bound.enumerated() {
          for _ in 0..<count { shared.sender.event.observe(shared.targets[target]) { _, _ in } }
        }
        shared.notices.withLock { $0 = [] }
        return EventSpecification(closures: closures, bound: bound)
      },
      finish: { shared.notices.withLock { $0 } })

    shared.sender.checkInvariants()
    let failures = histories.filter { history in
      // The notices alternate, starting with the one the initial state calls
      // for, and there is one per transition of some linearization.
      let expected = (0..<history.outcome.count).map {
        $0 % 2 == (history.setup.isObserved ? 1 : 0)
      }
      return history.outcome != expected
        || linearization(of: history.threads, from: history.setup) {
          $0.transitions == history.outcome.count
        } == nil
    }
    #expect(
      failures.count == 0,
      """
      \(failures.count) of \(histories.count) histories have no linearization; the first:
      initially: \(failures.first.map { "closures \($0.setup.closures.sorted()), bound to targets \($0.setup.bound)" } ?? "")
      \(failures.first.map { describe($0.threads) } ?? "")
      notices: \(failures.first.map { $0.outcome.map { $0 ? "first" : "last gone" } } ?? [])
      """)
  }
}
