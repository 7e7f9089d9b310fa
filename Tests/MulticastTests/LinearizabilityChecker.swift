// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Synchronization

// A brute-force linearizability checker and what it needs to record short
// concurrent histories: threads that start each round together, and a clock
// that orders every call's start and end.

/// A sequential specification: the plain model that every concurrent history
/// must be explainable by.
protocol SequentialSpecification {
  associatedtype Operation: Sendable & CustomStringConvertible
  /// Applies `operation` and returns what the real call must have returned.
  mutating func apply(_ operation: Operation) -> Int
}

/// One call of a concurrent history: what was called, what it returned, and
/// the ticks of a shared clock read just before it began and just after it
/// returned.
struct Call<Operation: Sendable & CustomStringConvertible>: Sendable, CustomStringConvertible {
  var operation: Operation
  var output: Int
  var invoked: Int
  var returned: Int

  var description: String { "[\(invoked)–\(returned)] \(operation) -> \(output)" }
}

/// Searches for a linearization of a history: an order of its calls that keeps
/// each thread's order and every real-time precedence (a call that returned
/// before another began comes first), in which the specification, started
/// from `initial`, returns what every call returned and ends in a state that
/// `accept` accepts.
///
/// - Returns: The order found, as (thread, index) pairs, or `nil` if there is
///   none: the history is not linearizable.
/// - Complexity: Exponential in the number of calls; for the short histories
///   it is meant for (a few calls per thread), a few dozen orders at most.
func linearization<Specification: SequentialSpecification>(
  of threads: [[Call<Specification.Operation>]], from initial: Specification,
  accepting accept: (Specification) -> Bool = { _ in true }
) -> [(thread: Int, index: Int)]? {
  var next = Array(repeating: 0, count: threads.count)
  var order: [(thread: Int, index: Int)] = []

  func search(_ state: Specification) -> Bool {
    guard order.count < threads.reduce(0, { $0 + $1.count }) else { return accept(state) }
    // The earliest return among the pending calls: a call that began after
    // it cannot go next.
    let earliestReturn = threads.indices
      .filter { next[$0] < threads[$0].count }
      .map { threads[$0][next[$0]].returned }
      .min()!
    for thread in threads.indices where next[thread] < threads[thread].count {
      let call = threads[thread][next[thread]]
      guard call.invoked < earliestReturn else { continue }
      var state = state
      guard state.apply(call.operation) == call.output else { continue }
      order.append((thread, next[thread]))
      next[thread] += 1
      if search(state) { return true }
      next[thread] -= 1
      order.removeLast()
    }
    return false
  }

  return search(initial) ? order : nil
}

/// A clock that orders events across threads: each tick is later than every
/// tick taken before it, on any thread.
final class HistoryClock: Sendable {
  private let now = Atomic(0)

  func tick() -> Int {
    now.add(1, ordering: .sequentiallyConsistent).newValue
  }

  /// Waits for about `iterations` loads of the clock, without ticking it.
  func pause(_ iterations: Int) {
    for _ in 0..<iterations { _ = now.load(ordering: .relaxed) }
  }
}

/// A barrier that threads pass together, round after round, by spinning: a
/// sleeping barrier would wake them microseconds apart, and the races a
/// history looks for last nanoseconds.
final class SpinBarrier: Sendable {
  private let parties: Int
  private let arrivals = Atomic(0)

  init(parties: Int) { self.parties = parties }

  /// Returns once every party has arrived at this round of the barrier.
  func arriveAndWait() {
    let ticket = arrivals.add(1, ordering: .acquiringAndReleasing).newValue
    let roundEnd = (ticket + parties - 1) / parties * parties
    var spins = 0
    while arrivals.load(ordering: .acquiring) < roundEnd {
      spins += 1
      // Let a descheduled party run when the machine is busy.
      if spins % 64 == 0 { Thread.yield() }
    }
  }
}

extension Thread {
  /// Gives up the processor to another thread, if one is ready.
  static func yield() {
    #if canImport(Darwin)
    pthread_yield_np()
    #elseif os(Windows)
    SwitchToThread()
    #else
    sched_yield()
    #endif
  }
}

/// Runs `body` on a new thread of its own and returns what it returns, once
/// the thread has finished: a join that suspends the calling task rather than
/// blocking a thread of the cooperative pool.
func onNewThread<Result: Sendable>(
  _ body: @escaping @Sendable () -> Result
) async -> Result {
  await withCheckedContinuation { finished in
    let thread = Thread { finished.resume(returning: body()) }
    thread.start()
  }
}
