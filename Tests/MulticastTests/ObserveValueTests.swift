// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// A target that records the values it hears.
private final class ValueTarget {
  var heard: [Int] = []
}

/// What a list of values heard breaks, if anything, of "the current value,
/// then each new one".
///
/// One thread assigned 1, 2, 3, ... in turn.
func gapsOrRepeats(_ heard: [Int]) -> String? {
  for (previous, next) in zip(heard, heard.dropFirst()) where next != previous + 1 {
    return "heard \(next) after \(previous)"
  }
  return nil
}

/// What subscriptions made while a thread sends break of "the value current
/// when it was made, then every later one".
///
/// A thread sends 1, 2, 3, ... up to `count` with `send`, while
/// `subscribe` is called up to `subscriptions` times (on the main actor, or
/// where no actor is). Returns each gap, repeat, or end before the last
/// value that a subscription heard.
func noGapProblems(
  count: Int, subscriptions: Int, onMainActor: Bool, send: @escaping @Sendable (Int) -> Void,
  subscribe:
    @escaping @Sendable (_ log: Locked<[Int]>, _ isolation: isolated (any Actor)?) ->
    EventSubscription
) async -> [String] {
  let sent = Locked(0)
  let logs = await withTaskGroup(of: [Locked<[Int]>].self) { group in
    group.addTask {
      await onNewThread {
        for value in 1...count {
          send(value)
          sent.withLock { $0 = value }
        }
        return []
      }
    }
    group.addTask {
      var logs: [Locked<[Int]>] = []
      var kept: [EventSubscription] = []
      for _ in 0..<subscriptions {
        let log = Locked<[Int]>([])
        if onMainActor {
          kept.append(await MainActor.run { subscribe(log, MainActor.shared) })
        } else {
          kept.append(subscribe(log, nil))
        }
        logs.append(log)
        if sent.withLock({ $0 }) == count { break }
        await Task.yield()
      }
      // Every subscription hears the rest, to the last value.
      while sent.withLock({ $0 }) < count { await Task.yield() }
      await waitForDeliveries()
      withExtendedLifetime(kept) {}
      return logs
    }
    return await group.reduce(into: []) { $0 += $1 }
  }
  var problems: [String] = []
  for (number, log) in logs.enumerated() {
    let heard = log.withLock { $0 }
    if let problem = gapsOrRepeats(heard) {
      problems.append("subscription \(number): \(problem)")
    }
    if heard.last != count {
      problems.append(
        "subscription \(number) ended at \(heard.last.map(String.init) ?? "nothing")")
    }
  }
  return problems
}

@Suite("Observing a value from its current value on")
struct ObserveValueTests {
  @Test("The current value is heard before observeValue returns, then each new value")
  func currentThenChanges() {
    let volume = ObservableValue(5)
    var heard: [Int] = []
    let subscription = volume.observeValue { heard.append($0) }
    #expect(heard == [5])
    volume.value = 6
    volume.set(7)
    #expect(heard == [5, 6, 7])
    withExtendedLifetime(subscription) {}
  }

  @Test("The target form hears the current value and the changes while its target lives")
  func targetForm() {
    let volume = ObservableValue(1)
    let target = ValueTarget()
    volume.observeValue(target) { target, value in target.heard.append(value) }
    volume.value = 2
    #expect(target.heard == [1, 2])
  }

  @Test(
    "Subscribed from a handler of the same value: the current value comes after the change under way, before the next"
  )
  func fromAHandler() {
    let level = ObservableValue(0)
    var heard: [String] = []
    var inner: EventSubscription?
    let outer = level.observe { _, new in
      heard.append("outer \(new)")
      if inner == nil {
        inner = level.observeValue { heard.append("inner \($0)") }
        level.value = new + 1
      }
    }
    level.value = 1
    #expect(heard == ["outer 1", "inner 1", "outer 2", "inner 2"])
    withExtendedLifetime((outer, inner)) {}
  }

  @Test(
    "While a thread assigns 1, 2, 3, ..., subscriptions made where no actor is and on the main actor hear the current value, then every later one: no gap, no repeat",
    arguments: [false, true])
  func noGapUnderAssignments(onMainActor: Bool) async {
    let level = ObservableValue(0)
    let problems = await noGapProblems(
      count: 20_000, subscriptions: 200, onMainActor: onMainActor, send: { level.value = $0 }
    ) { log, isolation in
      level.observeValue(isolation: isolation) { value in log.withLock { $0.append(value) } }
    }
    #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
  }
}
