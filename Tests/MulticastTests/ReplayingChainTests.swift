// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Multicast
import Testing

/// A sender's event and three events derived from it in a chain.
///
/// Each level hears the value sent, `v`, as `v`, `2v`, `2v` and `v`.
private func chain(of sender: EventSender<Int>) -> [Event<Int>] {
  let mapped = sender.event.map { $0 * 2 }
  let filtered = mapped.filter { $0.isMultiple(of: 2) }
  let compacted = filtered.compactMap { $0 / 2 }
  return [sender.event, mapped, filtered, compacted]
}

/// What the producers send, and how far they and the churning threads got.
///
/// Producer `p` sends its `i`th value as `i * producers + p`.
private struct Producers: Sendable {
  let count: Int
  let valuesEach: Int
  let progress: [SendProgress]
  let churners: Int
  /// How many subscriptions the churning threads made.
  let subscribed = Locked(0)
  /// How many churning threads wait for a value.
  let waiting = Locked(0)

  init(_ count: Int, valuesEach: Int, churners: Int) {
    self.count = count
    self.valuesEach = valuesEach
    self.churners = churners
    progress = (0..<count).map { _ in SendProgress() }
  }

  func value(_ index: Int, of producer: Int) -> Int { index * count + producer }

  /// The producer and the index of the value sent, from what `level` of the
  /// chain heard.
  func sent(_ heard: Int, at level: Int) -> (producer: Int, index: Int) {
    let value = level == 1 || level == 2 ? heard / 2 : heard
    return (value % count, value / count)
  }

  var lastStarted: [Int] { progress.map(\.lastStarted) }
  var areDone: Bool { progress.allSatisfy { $0.isDone.withLock { $0 } } }

  /// Sends `producer`'s values, each once a new subscription was made
  /// since the last (or every churning thread waits for a value), so that
  /// values and churn interleave however the threads are scheduled.
  func send(_ producer: Int, to sender: EventSender<Int>, _ watchdog: Watchdog) {
    for index in 0..<valuesEach {
      let subscribedBefore = subscribed.withLock { $0 }
      progress[producer].started.withLock { $0 = index }
      sender.send(value(index, of: producer))
      progress[producer].finished.withLock { $0 = index }
      if producer == 0 { watchdog.progress.withLock { $0 = index } }
      while subscribed.withLock({ $0 }) == subscribedBefore, waiting.withLock({ $0 }) < churners {
        Thread.yield()
      }
    }
    progress[producer].isDone.withLock { $0 = true }
  }
}

/// What one subscription heard, as each producer's indices.
private final class Heard: Sendable {
  let indices: Locked<[[Int]]>
  /// Raised when every producer's last value was heard.
  let heardLast = Signal()

  init(_ producers: Producers) {
    indices = Locked(Array(repeating: [], count: producers.count))
  }

  func append(_ index: Int, of producer: Int, _ producers: Producers) {
    let complete = indices.withLock {
      $0[producer].append(index)
      return $0.allSatisfy { $0.last == producers.valuesEach - 1 }
    }
    if complete { heardLast.raise() }
  }
}

/// Subscribes where no actor is, recording what `level` hears.
private func record(
  _ level: Int, of levels: [Event<Int>], _ producers: Producers, into heard: Heard
) -> EventSubscription {
  levels[level].observe { value in
    let (producer, index) = producers.sent(value, at: level)
    heard.append(index, of: producer, producers)
  }
}

/// One subscription made and cancelled at one level, with each producer's
/// progress around it.
private struct ChurnWindow: Sendable {
  let level: Int
  let heard: Heard
  /// Each producer's last send begun when `observe` returned.
  var startedWhenSubscribed: [Int]
  /// Each producer's last send begun when `cancel()` returned.
  var startedWhenCancelled: [Int]
}

/// What is wrong with what `window`'s subscription heard.
///
/// From each producer it must hear one unbroken run of values: the latest
/// replayed, or else the first sent after it subscribed, then each one
/// after it until its cancel. So each run begins no later than the first
/// value sent after `observe` returned, has no gap, no repeat and nothing
/// out of order, and holds nothing sent after `cancel()` returned. (A
/// value whose send returned before the cancel may still be missed:
/// another thread may have been delivering it.)
private func churnProblems(_ window: ChurnWindow) -> [String] {
  let heard = window.heard.indices.withLock { $0 }
  var problems: [String] = []
  for (producer, indices) in heard.enumerated() {
    let prefix = "level \(window.level), producer \(producer)"
    let firstAfter = window.startedWhenSubscribed[producer] + 1
    if let first = indices.first, first > firstAfter {
      problems.append("\(prefix): first heard \(first), though \(firstAfter) was sent after")
    }
    if let (earlier, later) = zip(indices, indices.dropFirst()).first(where: { $1 != $0 + 1 }) {
      problems.append(
        "\(prefix): heard \(later) after \(earlier); \(firstAfter - 1) had begun when it subscribed"
      )
    }
    if let late = indices.first(where: { $0 > window.startedWhenCancelled[producer] }) {
      problems.append("\(prefix): heard \(late), sent after cancel() returned")
    }
  }
  return problems
}

/// Subscribes and cancels at each level in turn, from `firstLevel` on.
///
/// It goes as fast as it can, until the producers are done. Every other
/// subscription stays until it heard a value (its replay, unless another
/// thread is still delivering it), so that there are runs to check.
private func churn(
  _ levels: [Event<Int>], from firstLevel: Int, _ producers: Producers
) -> [ChurnWindow] {
  var windows: [ChurnWindow] = []
  var level = firstLevel
  while !producers.areDone {
    let heard = Heard(producers)
    let subscription = record(level, of: levels, producers, into: heard)
    let startedWhenSubscribed = producers.lastStarted
    producers.subscribed.withLock { $0 += 1 }
    if windows.count.isMultiple(of: 2) {
      producers.waiting.withLock { $0 += 1 }
      while heard.indices.withLock({ $0.joined().isEmpty }), !producers.areDone { Thread.yield() }
      producers.waiting.withLock { $0 -= 1 }
    }
    subscription.cancel()
    windows.append(
      ChurnWindow(
        level: level, heard: heard, startedWhenSubscribed: startedWhenSubscribed,
        startedWhenCancelled: producers.lastStarted))
    level = (level + 1) % levels.count
  }
  return windows
}

/// Sends over a chain while threads subscribe and cancel at every level;
/// returns what went wrong.
///
/// One subscription to the sender's event stays, and only that one, so
/// that each derived event in turn loses its last subscription, and
/// connects again (replaying, if the sender does).
private func churnChain(
  replaying: Bool, _ producers: Producers, _ watchdog: Watchdog
) async -> (churning: [String], staying: [String]) {
  let sender = EventSender<Int>(replaysLatest: replaying)
  let levels = chain(of: sender)
  let staying = Heard(producers)
  let stayingSubscription = record(0, of: levels, producers, into: staying)

  async let windows = withTaskGroup(of: [ChurnWindow].self) { group in
    for churner in 0..<producers.churners {
      group.addTask {
        await onNewThread { churn(levels, from: churner % levels.count, producers) }
      }
    }
    return await group.reduce(into: []) { $0 += $1 }
  }
  await withTaskGroup(of: Void.self) { group in
    for producer in 0..<producers.count {
      group.addTask { await onNewThread { producers.send(producer, to: sender, watchdog) } }
    }
  }
  let churned = await windows
  // The watchdog ends the wait if a value never arrives. (`.distantFuture`
  // traps in `NSCondition` on Linux.)
  await onNewThread { _ = staying.heardLast.wait(until: Date(timeIntervalSinceNow: 3_600)) }

  let churning = churned.flatMap(churnProblems)
  var problems: [String] = []
  for (producer, indices) in staying.indices.withLock({ $0 }).enumerated()
  where indices != Array(0..<producers.valuesEach) {
    let missing = Set(0..<producers.valuesEach).subtracting(indices).count
    problems.append(
      "the sender's own subscription heard \(indices.count) of producer \(producer)'s \(producers.valuesEach) values, \(missing) missing"
    )
  }
  let heardAny = churned.count { !$0.heard.indices.withLock { $0.joined().isEmpty } }
  if heardAny < churned.count / 4 {
    problems.append("only \(heardAny) of the \(churned.count) churning subscriptions heard a value")
  }
  withExtendedLifetime(stayingSubscription) {}
  return (churning, problems)
}

/// Runs ``churnChain(replaying:_:_:)`` ten times, each over a fresh chain:
/// most problems come while a chain is young.
private func churnChains(
  replaying: Bool, _ watchdog: Watchdog
) async -> (churning: [String], staying: [String]) {
  var problems: (churning: [String], staying: [String]) = ([], [])
  for round in 0..<10 {
    let found = await churnChain(
      replaying: replaying, Producers(2, valuesEach: 100, churners: 4), watchdog)
    problems.churning += found.churning.map { "round \(round): \($0)" }
    problems.staying += found.staying.map { "round \(round): \($0)" }
  }
  return problems
}

@Suite("Derived events under churn")
struct ReplayingChainTests {
  /// A chain that may never finish runs in a child process, which a
  /// watchdog ends if the work never drains; its time is above a whole run
  /// under a sanitizer.
  ///
  /// Each level connects upstream as its first subscription comes and
  /// disconnects as its last goes, while values are under way: a value
  /// forwarded by a connection that ended must not reach a later
  /// subscription (twice, or out of order), and `observe` must not return
  /// before every level above it is connected (nothing lost).
  @Test(
    "A chain of map, filter and compactMap finishes while threads subscribe and cancel at every level, the sender's own subscription hears every value, and every subscription hears an unbroken run of values",
    arguments: [true, false])
  func chainUnderChurnFinishesAndLosesNothing(replaying: Bool) async {
    await #expect(processExitsWith: .success) { [replaying] in
      let watchdog = Watchdog(seconds: 300, "sending over churning chains")
      let problems = await churnChains(replaying: replaying, watchdog)
      watchdog.stop()
      #expect(
        problems.staying.isEmpty,
        "\(problems.staying.count) problems:\n\(problems.staying.prefix(8).joined(separator: "\n"))"
      )
      #expect(
        problems.churning.isEmpty,
        "\(problems.churning.count) problems:\n\(problems.churning.prefix(8).joined(separator: "\n"))"
      )
    }
  }
}
