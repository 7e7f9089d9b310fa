// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

@Suite("Re-entrancy")
struct MulticastDelegateReentrancyTests {
  @Test(
    "An observer that removes itself is called this time, not next time", arguments: Path.allCases)
  func removesItself(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let a = Probe("a", log: log)
    let b = Probe("b", log: log) { delegate.removeObserver($0) }
    let c = Probe("c", log: log)
    for observer in [a, b, c] { delegate.addObserver(observer) }
    #expect(delegate.pingAll(log) == ["a", "b", "c"])
    delegate.checkInvariants()
    #expect(delegate.pingAll(log) == ["a", "c"])
  }

  @Test("An observer removed before its turn is not called", arguments: Path.allCases)
  func removedBeforeTurn(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let c = Probe("c", log: log)
    let a = Probe("a", log: log) { _ in delegate.removeObserver(c) }
    let b = Probe("b", log: log)
    for observer in [a, b, c] { delegate.addObserver(observer) }
    #expect(delegate.pingAll(log) == ["a", "b"])
    #expect(!delegate.contains(c))
  }

  @Test(
    "Removing an observer whose turn has passed does not repeat or skip anyone",
    arguments: Path.allCases)
  func removedAfterTurn(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let a = Probe("a", log: log)
    let b = Probe("b", log: log) { _ in delegate.removeObserver(a) }
    let c = Probe("c", log: log)
    for observer in [a, b, c] { delegate.addObserver(observer) }
    #expect(delegate.pingAll(log) == ["a", "b", "c"])
    #expect(delegate.pingAll(log) == ["b", "c"])
  }

  @Test(
    "An observer added during a broadcast is first called by the next", arguments: Path.allCases)
  func addedDuringBroadcast(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let late = Probe("late", log: log)
    let a = Probe("a", log: log) { _ in delegate.addObserver(late) }
    let b = Probe("b", log: log)
    delegate.addObserver(a)
    delegate.addObserver(b)
    #expect(delegate.pingAll(log) == ["a", "b"])
    #expect(delegate.pingAll(log) == ["a", "b", "late"])
  }

  @Test(
    "An observer removed and added again before its turn waits for the next broadcast",
    arguments: Path.allCases)
  func removedAndReaddedDuringBroadcast(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let c = Probe("c", log: log)
    let a = Probe("a", log: log) { probe in
      delegate.removeObserver(c)
      delegate.addObserver(c)
      probe.onPing = nil
    }
    let b = Probe("b", log: log)
    for observer in [a, c, b] { delegate.addObserver(observer) }
    #expect(delegate.pingAll(log) == ["a", "b"])
    #expect(delegate.pingAll(log) == ["a", "b", "c"])
  }

  @Test(
    "Removals are seen after registrations in the same broadcast replace the storage",
    arguments: Path.allCases)
  func removalAfterGrowthDuringBroadcast(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let crowd = (0..<1_000).map { Probe("crowd \($0)", log: log) }
    let victim = Probe("victim", log: log)
    let a = Probe("a", log: log) { probe in
      // Enough registrations to replace the buffer the broadcast is reading...
      for observer in crowd { delegate.addObserver(observer) }
      // ...and a removal marked after that, which the broadcast must still see.
      delegate.removeObserver(victim)
      probe.onPing = nil
    }
    let b = Probe("b", log: log)
    for observer in [a, b, victim] { delegate.addObserver(observer) }
    #expect(delegate.pingAll(log) == ["a", "b"])
    delegate.checkInvariants()
    #expect(delegate.pingAll(log) == ["a", "b"] + crowd.map(\.name))
  }

  @Test(
    "Removals that compact the storage during a broadcast skip exactly the removed",
    arguments: Path.allCases)
  func compactionDuringBroadcast(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let others = (0..<100).map { Probe("\($0)", log: log) }
    let a = Probe("a", log: log) { probe in
      for (position, observer) in others.enumerated() where position % 4 != 0 {
        delegate.removeObserver(observer)
      }
      probe.onPing = nil
    }
    delegate.addObserver(a)
    for observer in others { delegate.addObserver(observer) }
    let kept = others.enumerated().filter { $0.offset % 4 == 0 }.map(\.element.name)
    #expect(delegate.pingAll(log) == ["a"] + kept)
    delegate.checkInvariants()
    #expect(delegate.pingAll(log) == ["a"] + kept)
    withExtendedLifetime((a, others)) {}
  }

  @Test("An observer deallocated during a broadcast is not called", arguments: Path.allCases)
  func deallocatedDuringBroadcast(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    var doomed: Probe? = Probe("doomed", log: log)
    let a = Probe("a", log: log) { _ in doomed = nil }
    delegate.addObserver(a)
    delegate.addObserver(doomed!)
    #expect(delegate.pingAll(log) == ["a"])
    #expect(delegate.count == 1)
  }

  @Test("A nested broadcast runs to completion inside the outer one", arguments: Path.allCases)
  func nestedBroadcast(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    var depth = 0
    let a = Probe("a", log: log)
    let b = Probe("b", log: log) { _ in
      guard depth == 0 else { return }
      depth += 1
      log.append("(")
      delegate { $0.ping() }
      log.append(")")
      depth -= 1
    }
    let c = Probe("c", log: log)
    for observer in [a, b, c] { delegate.addObserver(observer) }
    #expect(delegate.pingAll(log) == ["a", "b", "(", "a", "b", "c", ")", "c"])
  }

  @Test(
    "A nested broadcast sees removals made by the outer one's observers", arguments: Path.allCases)
  func nestedBroadcastAfterRemoval(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let c = Probe("c", log: log)
    var nested = false
    let a = Probe("a", log: log) { _ in
      guard !nested else { return }
      nested = true
      delegate.removeObserver(c)
      delegate { $0.ping() }
    }
    for observer in [a, c] { delegate.addObserver(observer) }
    #expect(delegate.pingAll(log) == ["a", "a"])
  }

  @Test(
    "Observers may register and query from inside a broadcast without deadlock",
    arguments: Path.allCases)
  func everyOperationFromInside(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let extra = Probe("extra", log: log)
    var seen: [Int] = []
    let a = Probe("a", log: log) { probe in
      seen.append(delegate.count)
      delegate.addObserver(extra)
      seen.append(delegate.contains(extra) ? 1 : 0)
      delegate.removeObserver(extra)
      seen.append(delegate.isEmpty ? 1 : 0)
      delegate.checkInvariants()
    }
    delegate.addObserver(a)
    #expect(delegate.pingAll(log) == ["a"])
    #expect(seen == [1, 1, 0])
  }
}
