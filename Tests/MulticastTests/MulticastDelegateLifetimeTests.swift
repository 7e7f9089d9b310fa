// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

@Suite("Lifetime")
struct MulticastDelegateLifetimeTests {
  @Test("Observers are held weakly and never retained", arguments: Path.allCases)
  func observersAreNotRetained(path: Path) {
    let tracker = LifetimeTracker()
    let delegate = path.make((any Pinging).self)
    do {
      let observers = (0..<10).map { _ in tracker.instance() }
      for observer in observers { delegate.addObserver(observer) }
      delegate { $0.ping() }
      #expect(tracker.live == 10)
      withExtendedLifetime(observers) {}
    }
    #expect(tracker.created == 10)
    #expect(tracker.live == 0)
  }

  @Test(
    "A dead observer is never called again and stops counting at once", arguments: Path.allCases)
  func deadObserversStopCounting(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let a = Probe("a", log: log)
    var b: Probe? = Probe("b", log: log)
    let c = Probe("c", log: log)
    for observer in [a, b!, c] { delegate.addObserver(observer) }
    #expect(delegate.count == 3)
    b = nil
    #expect(delegate.count == 2)
    #expect(!delegate.isEmpty)
    #expect(delegate.pingAll(log) == ["a", "c"])
    delegate.checkInvariants()
  }

  @Test("isEmpty is true once every observer has died", arguments: Path.allCases)
  func isEmptyAfterAllDie(path: Path) {
    let delegate = path.make((any Pinging).self)
    do {
      let observers = (0..<5).map { _ in Silent() }
      for observer in observers { delegate.addObserver(observer) }
      #expect(!delegate.isEmpty)
      withExtendedLifetime(observers) {}
    }
    #expect(delegate.isEmpty)
    #expect(delegate.count == 0)
    var calls = 0
    delegate.invoke { _ in calls += 1 }
    #expect(calls == 0)
  }

  @Test(
    "Storage stays bounded while 100,000 short-lived observers come and go",
    arguments: Path.allCases)
  func churnKeepsStorageBounded(path: Path) {
    let delegate = path.make((any Pinging).self)
    let survivors = (0..<10).map { _ in Silent() }
    for observer in survivors { delegate.addObserver(observer) }
    var largest = 0
    for round in 0..<100_000 {
      let transient = Silent()
      delegate.addObserver(transient)
      if round.isMultiple(of: 2) { delegate.removeObserver(transient) }
      largest = max(largest, delegate.storageCapacity)
    }
    delegate.checkInvariants()
    #expect(delegate.count == survivors.count)
    // Ten live observers: a few dozen slots and index entries, never thousands.
    #expect(largest <= 128, "storage grew to \(largest) for 10 live observers")
  }

  @Test("A million short-lived observers leave storage proportional to the live ones")
  func millionObserverChurn() {
    let delegate = MulticastDelegate<any Pinging>()
    let survivors = (0..<100).map { _ in Silent() }
    for observer in survivors { delegate.addObserver(observer) }
    var largest = 0
    for round in 0..<1_000_000 {
      let transient = Silent()
      delegate.addObserver(transient)
      if round.isMultiple(of: 3) { delegate.removeObserver(transient) }
      if round.isMultiple(of: 1_000) { largest = max(largest, delegate.storageCapacity) }
    }
    delegate.checkInvariants()
    #expect(delegate.count == 100)
    // 100 live observers: entry slots and index slots stay in the hundreds.
    #expect(largest < 1_000, "storage grew to \(largest) slots for 100 live observers")
    withExtendedLifetime(survivors) {}
  }

  @Test("Storage shrinks back after a crowd of observers dies", arguments: Path.allCases)
  func storageShrinksAfterMassDeath(path: Path) {
    let delegate = path.make((any Pinging).self)
    do {
      let crowd = (0..<10_000).map { _ in Silent() }
      for observer in crowd { delegate.addObserver(observer) }
      #expect(delegate.storageCapacity >= 10_000)
      withExtendedLifetime(crowd) {}
    }
    let late = (0..<100).map { _ in Silent() }
    for observer in late { delegate.addObserver(observer) }
    let churn = (0..<20_000).map { _ in Silent() }
    for observer in churn {
      delegate.addObserver(observer)
      delegate.removeObserver(observer)
    }
    delegate.checkInvariants()
    #expect(delegate.count == 100)
    #expect(delegate.storageCapacity < 2_000, "capacity \(delegate.storageCapacity)")
    withExtendedLifetime(late) {}
  }

  @Test("An observer may remove itself from its deinit", arguments: Path.allCases)
  func removalFromDeinit(path: Path) {
    final class SelfRemover: Pinging {
      let delegate: MulticastDelegate<any Pinging>
      let tracker: LifetimeTracker.Instance
      init(_ delegate: MulticastDelegate<any Pinging>, _ tracker: LifetimeTracker) {
        self.delegate = delegate
        self.tracker = tracker.instance()
        delegate.addObserver(self)
      }
      deinit {
        delegate.removeObserver(self)
        #expect(!delegate.contains(self))
      }
    }
    let tracker = LifetimeTracker()
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let first = Probe("first", log: log)
    delegate.addObserver(first)
    var removers = (0..<50).map { _ in SelfRemover(delegate, tracker) }
    let last = Probe("last", log: log)
    delegate.addObserver(last)
    withExtendedLifetime(removers) { #expect(delegate.count == 52) }
    removers.removeAll()
    #expect(tracker.live == 0)
    delegate.checkInvariants()
    #expect(delegate.count == 2)
    #expect(delegate.pingAll(log) == ["first", "last"])
    withExtendedLifetime((first, last)) {}
  }

  @Test("Releasing the multicast delegate releases no observer and leaks nothing")
  func delegateDiesFirst() {
    let tracker = LifetimeTracker()
    let observer = tracker.instance()
    do {
      let delegate = MulticastDelegate<any Pinging>()
      delegate.addObserver(observer)
    }
    #expect(tracker.live == 1)
  }
}

/// Registers itself from its own `deinit`, through each face.
private final class LateSubscriber: Pinging {
  let delegate: MulticastDelegate<any Pinging>
  let sender: EventSender<Int>
  let value: ObservableValue<Int>
  let heard: Locked<[String]>

  init(
    delegate: MulticastDelegate<any Pinging>, sender: EventSender<Int>,
    value: ObservableValue<Int>, heard: Locked<[String]>
  ) {
    self.delegate = delegate
    self.sender = sender
    self.value = value
    self.heard = heard
  }

  func ping() { heard.withLock { $0.append("pinged") } }

  deinit {
    delegate.addObserver(self)
    let heard = heard
    sender.event.observe(self) { _, value in heard.withLock { $0.append("sent \(value)") } }
    value.observe(self) { _, _, new in heard.withLock { $0.append("set \(new)") } }
  }
}

@Suite("Lifetime: registering from a deinit")
struct RegisteringFromDeinitTests {
  @Test(
    "An object that registers itself from its own deinit is not registered: it cannot be referenced weakly any more"
  )
  func registeringFromDeinitDoesNothing() {
    let delegate = MulticastDelegate<any Pinging>()
    let sender = EventSender<Int>()
    let value = ObservableValue(0)
    let heard = Locked<[String]>([])
    do {
      _ = LateSubscriber(delegate: delegate, sender: sender, value: value, heard: heard)
    }
    #expect(delegate.count == 0)
    #expect(!sender.hasObservers)
    delegate { $0.ping() }
    sender.send(1)
    value.value = 2
    #expect(heard.withLock { $0 } == [])
  }
}
