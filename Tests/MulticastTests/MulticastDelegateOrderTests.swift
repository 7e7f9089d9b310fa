// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

@Suite("Order")
struct MulticastDelegateOrderTests {
  @Test("Observers are called in registration order", arguments: Path.allCases)
  func callsInRegistrationOrder(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let observers: [any Pinging] = (0..<20).map {
      $0.isMultiple(of: 2) ? Probe("\($0)", log: log) as any Pinging : OtherProbe("\($0)", log: log)
    }
    for observer in observers { delegate.addObserver(observer) }
    delegate.checkInvariants()
    #expect(delegate.pingAll(log) == (0..<20).map(String.init))
    withExtendedLifetime(observers) {}
  }

  @Test(
    "Adding a registered observer again keeps its place and calls it once", arguments: Path.allCases
  )
  func addingTwiceKeepsPlace(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let (a, b, c) = (Probe("a", log: log), Probe("b", log: log), Probe("c", log: log))
    delegate.addObserver(a)
    delegate.addObserver(b)
    delegate.addObserver(c)
    delegate.addObserver(a)
    delegate.addObserver(b)
    delegate.checkInvariants()
    #expect(delegate.count == 3)
    #expect(delegate.pingAll(log) == ["a", "b", "c"])
  }

  @Test("A removed observer added again goes to the end", arguments: Path.allCases)
  func removedThenAddedGoesLast(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let (a, b, c) = (Probe("a", log: log), Probe("b", log: log), Probe("c", log: log))
    for observer in [a, b, c] { delegate.addObserver(observer) }
    delegate.removeObserver(a)
    delegate.addObserver(a)
    delegate.checkInvariants()
    #expect(delegate.pingAll(log) == ["b", "c", "a"])
  }

  @Test("Removing an observer that is not registered does nothing", arguments: Path.allCases)
  func removingAbsentDoesNothing(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let (a, b) = (Probe("a", log: log), Probe("b", log: log))
    delegate.addObserver(a)
    delegate.removeObserver(b)
    delegate.removeObserver(b)
    delegate.checkInvariants()
    #expect(delegate.count == 1)
    #expect(delegate.contains(a))
    #expect(!delegate.contains(b))
    #expect(delegate.pingAll(log) == ["a"])
  }

  @Test("Order holds across many additions and removals", arguments: Path.allCases)
  func orderSurvivesCompaction(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let observers = (0..<1_000).map { Probe("\($0)", log: log) }
    for observer in observers { delegate.addObserver(observer) }
    for (position, observer) in observers.enumerated() where position % 3 != 0 {
      delegate.removeObserver(observer)
      delegate.checkInvariants()
    }
    let expected = stride(from: 0, to: 1_000, by: 3).map(String.init)
    #expect(delegate.count == expected.count)
    #expect(delegate.pingAll(log) == expected)
    withExtendedLifetime(observers) {}
  }

  @Test("An empty multicast delegate broadcasts to nobody")
  func emptyBroadcast() {
    let delegate = MulticastDelegate<any Pinging>()
    var calls = 0
    delegate.invoke { _ in calls += 1 }
    #expect(calls == 0)
    #expect(delegate.isEmpty)
    #expect(delegate.count == 0)
  }

  @Test("An observer may implement none of the protocol's methods")
  func defaultMethodsRun() {
    let delegate = MulticastDelegate<any Pinging>()
    let silent = Silent()
    delegate.addObserver(silent)
    var seen: [ObjectIdentifier] = []
    delegate {
      $0.ping()
      seen.append(ObjectIdentifier($0))
    }
    #expect(seen == [ObjectIdentifier(silent)])
  }
}
