// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

/// A target that records the changes it hears.
private final class ChangeTarget {
  var heard: [String] = []
}

@Suite("Observing a value's changes without duplicates")
struct RemovingDuplicatesTests {
  @Test("An assignment of an equal value is left out; every other subscription still hears it")
  func equalAssignmentsLeftOut() {
    let isMuted = ObservableValue(false)
    var distinct: [String] = []
    var every: [String] = []
    let subscriptions = [
      isMuted.observe(removingDuplicates: true) { old, new in distinct.append("\(old) -> \(new)") },
      isMuted.observe { old, new in every.append("\(old) -> \(new)") },
    ]
    for value in [true, true, false, false, true] { isMuted.value = value }
    #expect(distinct == ["false -> true", "true -> false", "false -> true"])
    #expect(every.count == 5)
    withExtendedLifetime(subscriptions) {}
  }

  @Test("removingDuplicates: false hears every assignment, as observe does")
  func notRemoving() {
    let level = ObservableValue(1)
    var heard: [Int] = []
    let subscription = level.observe(removingDuplicates: false) { _, new in heard.append(new) }
    level.value = 1
    level.set(1)
    #expect(heard == [1, 1])
    withExtendedLifetime(subscription) {}
  }

  @Test("The target form leaves out equal assignments while its target lives, and ends with it")
  func targetForm() {
    let mode = ObservableValue("light")
    let target = ChangeTarget()
    mode.observe(target, removingDuplicates: true) { target, old, new in
      target.heard.append("\(old) -> \(new)")
    }
    var released: ChangeTarget? = ChangeTarget()
    weak let gone = released
    mode.observe(released!, removingDuplicates: true) { target, old, new in
      target.heard.append("\(old) -> \(new)")
    }
    mode.value = "dark"
    released = nil
    #expect(gone == nil, "the value kept its target alive")
    mode.value = "dark"
    mode.value = "light"
    #expect(target.heard == ["light -> dark", "dark -> light"])
    #expect(mode.removeObservers(target) == 1)
  }

  @Test(
    "Four threads assigning at once: the changes heard are exactly those to a different value, in an unbroken chain that ends at the current value"
  )
  func manyThreads() async {
    let (threads, assignments) = (4, 5_000)
    let level = ObservableValue(0)
    let distinct = Locked<[(old: Int, new: Int)]>([])
    let every = Locked<[(old: Int, new: Int)]>([])
    // Both subscriptions are made where no actor is: the threads that assign
    // deliver to them, one change at a time, in the order of the assignments.
    let subscriptions = [
      level.observe(removingDuplicates: true) { old, new in
        distinct.withLock { $0.append((old, new)) }
      },
      level.observe { old, new in every.withLock { $0.append((old, new)) } },
    ]
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<threads {
        group.addTask {
          await onNewThread {
            // Values 0, 1, 2 in runs, so that many assignments repeat the
            // current value and many do not.
            for step in 0..<assignments { level.value = (step / (thread + 1)) % 3 }
          }
        }
      }
    }
    // Every send has returned, so every change has been delivered.
    let heard = distinct.withLock { $0 }
    let all = every.withLock { $0 }
    #expect(all.count == threads * assignments)
    #expect(heard.elementsEqual(all.filter { $0.old != $0.new }, by: { $0 == $1 }))
    #expect(heard.allSatisfy { $0.old != $0.new })
    #expect(zip(heard, heard.dropFirst()).allSatisfy { $0.new == $1.old }, "a broken chain")
    #expect((heard.last?.new ?? 0) == level.value)
    withExtendedLifetime(subscriptions) {}
  }
}

@Suite("Observing a value's next change once, in the target form")
struct ObserveValueOnceTargetTests {
  @Test("The target hears the next change once; a released target hears none")
  func targetOnce() {
    let volume = ObservableValue(0)
    let target = ChangeTarget()
    volume.observeOnce(target) { target, old, new in target.heard.append("\(old) -> \(new)") }
    var released: ChangeTarget? = ChangeTarget()
    weak let gone = released
    volume.observeOnce(released!) { target, old, new in target.heard.append("\(old) -> \(new)") }
    released = nil
    #expect(gone == nil, "the value kept its target alive")
    volume.value = 1
    volume.value = 2
    #expect(target.heard == ["0 -> 1"])
    #expect(!volume.changes.hasObservers)
  }

  @Test("Cancelled before a change, it hears nothing")
  func cancelled() {
    let volume = ObservableValue(0)
    let target = ChangeTarget()
    let subscription = volume.observeOnce(target) { target, old, new in
      target.heard.append("\(old) -> \(new)")
    }
    subscription.cancel()
    volume.value = 1
    #expect(target.heard.isEmpty)
  }
}
