// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

@Suite("Removing every observer")
struct RemoveAllObserversTests {
  @Test("removeAllObservers leaves nothing registered and nothing called", arguments: Path.allCases)
  func removesEveryone(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let observers = (0..<10).map { Probe("\($0)", log: log) }
    for observer in observers { delegate.addObserver(observer) }
    delegate.removeAllObservers()
    delegate.checkInvariants()
    #expect(delegate.isEmpty)
    #expect(delegate.count == 0)
    #expect(observers.allSatisfy { !delegate.contains($0) })
    #expect(delegate.pingAll(log) == [])
    #expect(
      delegate.storageCapacity < 32, "capacity \(delegate.storageCapacity) after removing all")
  }

  @Test("Observers added after removeAllObservers are called in order", arguments: Path.allCases)
  func addingAgainWorks(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let (a, b) = (Probe("a", log: log), Probe("b", log: log))
    delegate.addObserver(a)
    delegate.addObserver(b)
    delegate.removeAllObservers()
    delegate.addObserver(b)
    delegate.addObserver(a)
    delegate.checkInvariants()
    #expect(delegate.pingAll(log) == ["b", "a"])
  }

  @Test(
    "removeAllObservers during a broadcast skips everyone not yet called", arguments: Path.allCases)
  func duringBroadcast(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let a = Probe("a", log: log)
    let b = Probe("b", log: log) { _ in delegate.removeAllObservers() }
    let late = Probe("late", log: log)
    let c = Probe("c", log: log) { _ in delegate.addObserver(late) }
    for observer in [a, b, c] { delegate.addObserver(observer) }
    #expect(delegate.pingAll(log) == ["a", "b"])
    delegate.checkInvariants()
    #expect(delegate.count == 0)
    #expect(delegate.retiredBufferCount == 0)
    withExtendedLifetime((a, c, late)) {}
  }

  @Test(
    "removeAllObservers inside a broadcast that holds a replaced buffer is seen",
    arguments: Path.allCases)
  func afterReplacement(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    var crowd: [Probe] = []
    let first = Probe("first", log: log) { _ in
      // Enough registrations to replace the buffer while this broadcast reads it.
      for index in 0..<20 {
        let extra = Probe("extra \(index)", log: log)
        crowd.append(extra)
        delegate.addObserver(extra)
      }
      delegate.removeAllObservers()
    }
    let second = Probe("second", log: log)
    delegate.addObserver(first)
    delegate.addObserver(second)
    #expect(delegate.pingAll(log) == ["first"])
    delegate.checkInvariants()
    #expect(delegate.count == 0)
    #expect(delegate.retiredBufferCount == 0, "a replaced buffer outlived its last broadcast")
    withExtendedLifetime((second, crowd)) {}
  }

  @Test("An event's removeAllObservers ends every subscription and tells the owner")
  func eventSender() {
    var notices: [String] = []
    let sender = EventSender<Int>(
      onFirstObserver: { notices.append("first") },
      onLastObserverGone: { notices.append("last gone") })
    var received: [Int] = []
    let subscription = sender.event.observe { received.append($0) }
    let target = Probe("target", log: Log())
    sender.event.observe(target) { _, value in received.append(value * 10) }
    sender.send(1)
    sender.removeAllObservers()
    sender.send(2)
    sender.checkInvariants()
    #expect(received == [1, 10])
    #expect(!sender.hasObservers)
    #expect(notices == ["first", "last gone"])
    subscription.cancel()
    #expect(notices == ["first", "last gone"], "cancelling an ended subscription is a no-op")
  }
}
