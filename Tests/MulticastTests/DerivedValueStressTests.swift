// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Testing

@testable import Multicast

/// Checks what one subscription to a derived value of two counters heard.
///
/// The derived value is `(a, b)`; one thread counts `a` up from 0 and
/// another `b`. A subscription must hear changes that chain (each one's
/// old value is the one before's new value), with each counter never going
/// back, every count between the first and the last it heard (changes made
/// at once may arrive as one), and, when it was kept to the end, every
/// count assigned after `observe` returned, up to the last.
struct DerivedHistory {
  typealias Pair = (a: Int, b: Int)

  /// The changes heard, in order.
  var changes: [(old: Pair, new: Pair)] = []
  /// The counters read just after `observe` returned.
  var readAfterObserve: Pair = (0, 0)
  /// The last counts, if the subscription was kept until the end.
  var finalCounts: Pair? = nil

  /// What is wrong with the history, or `nil`.
  func violation() -> String? {
    var seenA: Set<Int> = []
    var seenB: Set<Int> = []
    for (index, change) in changes.enumerated() {
      if index > 0 {
        let before = changes[index - 1].new
        if change.old != before {
          return "change \(index) has old \(change.old), but the one before ended at \(before)"
        }
      }
      if change.new.a < change.old.a || change.new.b < change.old.b {
        return "change \(index) goes back: \(change.old) -> \(change.new)"
      }
      seenA.insert(change.new.a)
      seenB.insert(change.new.b)
    }
    if let first = changes.first, let last = changes.last {
      for a in (first.old.a + 1)..<max(first.old.a + 1, last.new.a + 1) where !seenA.contains(a) {
        return "a = \(a) was never heard, between \(first.old.a) and \(last.new.a)"
      }
      for b in (first.old.b + 1)..<max(first.old.b + 1, last.new.b + 1) where !seenB.contains(b) {
        return "b = \(b) was never heard, between \(first.old.b) and \(last.new.b)"
      }
    }
    // The first change heard starts from the value when observe returned,
    // or before: the counters read just after cannot be behind it.
    if let firstOld = changes.first?.old,
      firstOld.a > readAfterObserve.a || firstOld.b > readAfterObserve.b
    {
      return
        "it first heard a change from \(firstOld), after \(readAfterObserve) was read: changes made after observe returned were lost"
    }
    if let finalCounts {
      let last = changes.last?.new ?? readAfterObserve
      if last != finalCounts {
        return "kept to the end, it last heard \(last), not \(finalCounts)"
      }
    }
    return nil
  }
}

@Suite("Derived values under threads")
struct DerivedValueStressTests {
  @Test("The checker finds a gap, a broken chain, a step back and a lost value")
  func checkerFindsViolations() {
    var good = DerivedHistory()
    good.changes = [((0, 0), (1, 0)), ((1, 0), (2, 1)), ((2, 1), (2, 2))]
    good.finalCounts = (2, 2)
    #expect(good.violation() == nil)

    var gap = good
    gap.changes = [((0, 0), (2, 0)), ((2, 0), (2, 2))]
    #expect(gap.violation()?.contains("a = 1 was never heard") == true)

    var chain = good
    chain.changes = [((0, 0), (1, 0)), ((1, 1), (2, 2))]
    #expect(chain.violation()?.contains("old") == true)

    var back = good
    back.changes = [((0, 0), (1, 1)), ((1, 1), (1, 0)), ((1, 0), (2, 2))]
    #expect(back.violation()?.contains("goes back") == true)

    var lost = good
    lost.changes = [((1, 0), (2, 1)), ((2, 1), (2, 2))]
    lost.readAfterObserve = (0, 0)
    #expect(lost.violation()?.contains("lost") == true)

    var short = good
    short.finalCounts = (3, 2)
    #expect(short.violation()?.contains("last heard") == true)
  }

  @Test(
    "Two counters combined on two threads: every subscription hears a consistent, ordered chain, none lost after observe returned",
    arguments: ["combined", "chained"])
  func combinedUnderThreads(form: String) async {
    let a = ObservableValue(0)
    let b = ObservableValue(0)
    let pair: DerivedValue<DerivedHistory.Pair> =
      switch form {
      case "combined": a.combined(with: b) { ($0, $1) }
      default: a.map { $0 }.combined(with: b.map { $0 }) { ($0, $1) }
      }
    // Sized to finish under ThreadSanitizer well within onThread's bound.
    let counts = 5_000
    let cycles = 120
    let histories = Locked<[DerivedHistory]>([])
    let kept = Locked<[(Locked<DerivedHistory>, EventSubscription)]>([])
    let readsWentBack = Locked(0)
    let watchdog = Signal()
    let finished = await withTaskGroup(of: Bool.self) { group in
      for counter in [a, b] {
        group.addTask {
          await onThread {
            for count in 1...counts { counter.value = count }
          }
        }
      }
      for subscriber in 0..<2 {
        group.addTask {
          await onThread {
            for cycle in 0..<cycles {
              let history = Locked(DerivedHistory())
              let subscription = pair.observe { old, new in
                history.withLock { $0.changes.append((old, new)) }
              }
              let read = (a: a.value, b: b.value)
              history.withLock { $0.readAfterObserve = read }
              // Keep one in ten to the end; end the others soon, to connect
              // and disconnect the derived value again and again.
              if cycle % 10 == subscriber {
                kept.withLock { $0.append((history, subscription)) }
              } else {
                for _ in 0..<(cycle % 7) * 50 { _ = pair.value }
                subscription.cancel()
                histories.withLock { $0.append(history.withLock { $0 }) }
              }
            }
          }
        }
      }
      group.addTask {
        await onThread {
          var last = (a: 0, b: 0)
          while !watchdog.wait(until: Date()) {
            let value = pair.value
            if value.a < last.a || value.b < last.b { readsWentBack.withLock { $0 += 1 } }
            last = value
          }
        }
      }
      var finished = true
      // The reader stops once the counters and the subscribers have.
      for await done in group.prefix(4) { finished = finished && done }
      watchdog.raise()
      for await done in group { finished = finished && done }
      return finished
    }
    #expect(finished, "a thread did not finish in time")
    // A kept subscription ends at (counts, counts), once the last changes,
    // which an assigning thread may have left to a drain, are delivered.
    let final = (a: counts, b: counts)
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline,
      kept.withLock({ $0 }).contains(where: { history, _ in
        history.withLock { $0.changes.last.map { $0.new != final } ?? true }
      })
    {
      await Task.yield()
    }
    var violations: [String] = []
    for (history, subscription) in kept.withLock({ $0 }) {
      history.withLock { $0.finalCounts = final }
      if let violation = history.withLock({ $0.violation() }) { violations.append(violation) }
      subscription.cancel()
    }
    for history in histories.withLock({ $0 }) {
      if let violation = history.violation() { violations.append(violation) }
    }
    #expect(violations.isEmpty, "\(violations.count) violations, first: \(violations.first ?? "")")
    #expect(readsWentBack.withLock { $0 } == 0, "a read of the derived value went back")
    #expect(pair.value == final)
    #expect(!a.changes.hasObservers && !b.changes.hasObservers)
  }

  @Test(
    "A mapped counter: every subscription hears each count once, in order, none lost after observe returned"
  )
  func mappedUnderThreads() async {
    let a = ObservableValue(0)
    let b = ObservableValue(0)  // never changes: the history's second count
    let pair = a.map { ($0, 0) }
    let counts = 20_000
    let histories = Locked<[DerivedHistory]>([])
    let finished = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        await onThread { for count in 1...counts { a.value = count } }
      }
      for _ in 0..<2 {
        group.addTask {
          await onThread {
            for cycle in 0..<300 {
              let history = Locked(DerivedHistory())
              let subscription = pair.observeValue { new in
                history.withLock { history in
                  // observeValue's first call is the current value.
                  let old = history.changes.last?.new ?? new
                  history.changes.append((old, new))
                }
              }
              history.withLock { $0.readAfterObserve = (a.value, b.value) }
              for _ in 0..<(cycle % 5) * 40 { _ = pair.value }
              subscription.cancel()
              histories.withLock { $0.append(history.withLock { $0 }) }
            }
          }
        }
      }
      var finished = true
      for await done in group { finished = finished && done }
      return finished
    }
    #expect(finished, "a thread did not finish in time")
    var violations: [String] = []
    for history in histories.withLock({ $0 }) {
      if let violation = history.violation() { violations.append(violation) }
      // A single source: each count is heard once, none merged.
      let news = history.changes.dropFirst().map(\.new.a)
      if zip(news, news.dropFirst()).contains(where: { $1 != $0 + 1 }) {
        violations.append("counts merged or repeated: \(news.prefix(20))")
      }
    }
    #expect(violations.isEmpty, "\(violations.count) violations, first: \(violations.first ?? "")")
  }
}

/// Runs `body` on a thread of its own, isolated to no actor; returns
/// whether it finished within a minute.
private func onThread(_ body: @escaping @Sendable () -> Void) async -> Bool {
  await withCheckedContinuation { continuation in
    let finished = Signal()
    Thread {
      body()
      finished.raise()
    }.start()
    Thread {
      // A bound for a hang, above a run under a sanitizer.
      continuation.resume(returning: finished.wait(until: Date().addingTimeInterval(600)))
    }.start()
  }
}
