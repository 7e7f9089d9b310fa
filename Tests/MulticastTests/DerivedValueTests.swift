// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

#if canImport(Observation)
import Observation
#endif

/// A plain class that shows whether a player is audible, from its volume
/// and whether it is muted.
final class AudibilityLabel {
  let isAudible: DerivedValue<Bool>
  private(set) var heard: [String] = []
  private var subscriptions: [EventSubscription] = []

  init(volume: ObservableValue<Double>, isMuted: ObservableValue<Bool>) {
    isAudible = volume.combined(with: isMuted) { volume, isMuted in volume > 0 && !isMuted }
    isAudible.observeValue(self) { label, isAudible in label.heard.append("now \(isAudible)") }
    isAudible.observe(self, removingDuplicates: true) { label, old, new in
      label.heard.append("\(old) -> \(new)")
    }
    subscriptions.append(
      isAudible.observeOnce { [unowned self] _, new in heard.append("first \(new)") })
  }
}

/// The same, on the main actor, as a view model.
@MainActor
final class AudibilityViewModel {
  let isAudible: DerivedValue<Bool>
  private(set) var heard: [String] = []

  init(volume: ObservableValue<Double>, isMuted: ObservableValue<Bool>) {
    isAudible = volume.combined(with: isMuted) { volume, isMuted in volume > 0 && !isMuted }
    isAudible.observeValue(self) { model, isAudible in
      MainActor.assertIsolated()
      model.heard.append("now \(isAudible)")
    }
    isAudible.observe(self, removingDuplicates: true) { model, old, new in
      model.heard.append("\(old) -> \(new)")
    }
  }
}

/// The same, in an actor.
actor AudibilityMonitor {
  private(set) var heard: [String] = []
  private var subscriptions: [EventSubscription] = []

  func follow(volume: ObservableValue<Double>, isMuted: ObservableValue<Bool>) {
    let isAudible = volume.combined(with: isMuted) { volume, isMuted in volume > 0 && !isMuted }
    subscriptions.append(
      isAudible.observeValue {
        self.assertIsolated()
        self.heard.append("now \($0)")
      })
    subscriptions.append(
      isAudible.observe(removingDuplicates: true) { old, new in
        self.heard.append("\(old) -> \(new)")
      })
  }

  /// Ends the subscriptions, which hold the monitor.
  func stop() { subscriptions = [] }
}

@Suite("Derived values: map and combined values")
struct DerivedValueTests {
  @Test("A mapped value reads from its source while not observed, at each read")
  func readsWhileNotObserved() {
    let volume = ObservableValue(0.5)
    let reads = Locked(0)
    let percent = volume.map { volume in
      reads.withLock { $0 += 1 }
      return Int(volume * 100)
    }
    #expect(percent.value == 50)
    volume.value = 0.7
    #expect(percent.value == 70)
    #expect(reads.withLock { $0 } == 2)
    #expect(!volume.changes.hasObservers, "not observed: not subscribed to its source")
  }

  @Test("Observed, a mapped value hears each change with the value it had before, once per change")
  func observedChanges() {
    let volume = ObservableValue(0.5)
    let runs = Locked(0)
    let percent = volume.map { volume in
      runs.withLock { $0 += 1 }
      return Int(volume * 100)
    }
    var heard: [String] = []
    let first = percent.observe { heard.append("a \($0) -> \($1)") }
    let second = percent.observe { heard.append("b \($0) -> \($1)") }
    #expect(volume.changes.hasObservers, "observed: subscribed to its source")
    runs.withLock { $0 = 0 }
    volume.value = 0.7
    volume.value = 0.7
    #expect(heard == ["a 50 -> 70", "b 50 -> 70", "a 70 -> 70", "b 70 -> 70"])
    #expect(runs.withLock { $0 } == 2, "the transform runs once per change, not per observer")
    #expect(percent.value == 70)
    #expect(runs.withLock { $0 } == 3, "a read runs the transform once, on the sources' values")
    first.cancel()
    #expect(volume.changes.hasObservers)
    second.cancel()
    #expect(!volume.changes.hasObservers, "its last subscription gone, it unsubscribes")
    volume.value = 0.1
    #expect(percent.value == 10)
  }

  @Test("observeValue starts from the current value, also after the source changed unobserved")
  func observeValue() {
    let volume = ObservableValue(0.5)
    let percent = volume.map { Int($0 * 100) }
    var heard: [Int] = []
    var shown = percent.observeValue { heard.append($0) }
    volume.value = 0.25
    shown.cancel()
    volume.value = 0.75
    shown = percent.observeValue { heard.append($0) }
    volume.value = 1
    #expect(heard == [50, 25, 75, 100])
    _ = shown
  }

  @Test("observeOnce hears the next change only, and removingDuplicates leaves out equal values")
  func onceAndDuplicates() {
    let volume = ObservableValue(0.5)
    let isAudible = volume.map { $0 > 0 }
    var once: [String] = []
    var distinct: [String] = []
    let first = isAudible.observeOnce { once.append("\($0) -> \($1)") }
    let changes = isAudible.observe(removingDuplicates: true) { distinct.append("\($0) -> \($1)") }
    volume.value = 0.6
    volume.value = 0
    volume.value = 0
    volume.value = 0.1
    #expect(once == ["true -> true"])
    #expect(distinct == ["true -> false", "false -> true"])
    _ = (first, changes)
  }

  @Test("changes is an event: a derived value's change stream subscribes upstream while observed")
  func changesEvent() {
    let volume = ObservableValue(1)
    let doubled = volume.map { $0 * 2 }
    var heard: [Int] = []
    let subscription = doubled.changes.map { $0.new - $0.old }.observe { heard.append($0) }
    #expect(volume.changes.hasObservers)
    volume.value = 3
    volume.value = 4
    #expect(heard == [4, 2])
    subscription.cancel()
    #expect(!volume.changes.hasObservers)
  }

  @Test(
    "A value derived from a derived value follows the chain, and subscribes only while observed")
  func chained() {
    let volume = ObservableValue(0.5)
    let isMuted = ObservableValue(false)
    let label = volume.map { Int($0 * 100) }.combined(with: isMuted) { percent, isMuted in
      isMuted ? "muted" : "\(percent)%"
    }
    #expect(label.value == "50%")
    var heard: [String] = []
    let shown = label.observeValue { heard.append($0) }
    volume.value = 0.7
    isMuted.value = true
    #expect(heard == ["50%", "70%", "muted"])
    #expect(label.value == "muted")
    shown.cancel()
    #expect(!volume.changes.hasObservers && !isMuted.changes.hasObservers)
    isMuted.value = false
    #expect(label.value == "70%")
  }

  @Test("Three values combined")
  func threeCombined() {
    let a = ObservableValue(1)
    let b = ObservableValue(2)
    let c = ObservableValue("x")
    let sum = a.combined(with: b, c) { a, b, c in "\(c)\(a + b)" }
    var heard: [String] = []
    let subscription = sum.observe { heard.append("\($0) -> \($1)") }
    b.value = 5
    c.value = "y"
    #expect(heard == ["x3 -> x6", "x6 -> y6"])
    withExtendedLifetime(subscription) {}
  }

  @Test("A derived value kept only by a target's subscription lives as long as the target")
  func keptBySubscription() {
    final class Target {}
    let volume = ObservableValue(1)
    var target: Target? = Target()
    var heard: [Int] = []
    weak var derived: DerivedValue<Int>?
    do {
      let made = volume.map { $0 + 1 }
      derived = made
      made.observe(target!) { _, _, new in heard.append(new) }
    }
    volume.value = 2
    #expect(heard == [3])
    target = nil
    volume.value = 3
    #expect(heard == [3])
    volume.value = 4
    #expect(!volume.changes.hasObservers, "the dead target's subscription ended")
    _ = derived
  }

  @Test("In a plain class: current value, changes without duplicates, once")
  func plainClass() {
    let volume = ObservableValue(0.5)
    let isMuted = ObservableValue(false)
    let label = AudibilityLabel(volume: volume, isMuted: isMuted)
    isMuted.value = true
    volume.value = 0
    isMuted.value = false
    volume.value = 0.3
    #expect(
      label.heard == [
        "now true", "now false", "true -> false", "first false", "now false", "now false",
        "now true", "false -> true",
      ])
    #expect(label.isAudible.value)
  }

  @Test("In main-actor code: handlers run on the main actor before the assignment returns")
  @MainActor
  func mainActor() {
    let volume = ObservableValue(0.5)
    let isMuted = ObservableValue(false)
    let model = AudibilityViewModel(volume: volume, isMuted: isMuted)
    isMuted.value = true
    isMuted.value = true
    volume.value = 0
    isMuted.value = false
    volume.value = 1
    #expect(
      model.heard == [
        "now true", "now false", "true -> false", "now false", "now false", "now false",
        "now true", "false -> true",
      ])
  }

  @Test("In an actor: handlers run on the actor, in order, whoever assigns")
  func inAnActor() async {
    let volume = ObservableValue(0.5)
    let isMuted = ObservableValue(false)
    let monitor = AudibilityMonitor()
    await monitor.follow(volume: volume, isMuted: isMuted)
    isMuted.value = true
    volume.value = 0
    isMuted.value = false
    volume.value = 1
    let expected = [
      "now true", "now false", "true -> false", "now false", "now false", "now true",
      "false -> true",
    ]
    for _ in 0..<10_000 {
      if await monitor.heard.count >= expected.count { break }
      await Task.yield()
    }
    #expect(await monitor.heard == expected)
    await monitor.stop()
  }

  @Test("An observer that assigns a source hears the change it made after the one in progress")
  func reentrantAssignment() {
    let volume = ObservableValue(1)
    let doubled = volume.map { $0 * 2 }
    var heard: [String] = []
    let first = doubled.observe { old, new in
      heard.append("first \(old) -> \(new)")
      if new == 4 { volume.value = 3 }
    }
    let second = doubled.observe { old, new in heard.append("second \(old) -> \(new)") }
    volume.value = 2
    #expect(
      heard == [
        "first 2 -> 4", "second 2 -> 4", "first 4 -> 6", "second 4 -> 6",
      ])
    #expect(doubled.value == 6)
    _ = (first, second)
  }

  @Test("A derived value's changes stream to another task, and end when its source is released")
  func changesStream() async {
    var volume: ObservableValue<Int>? = ObservableValue(1)
    let changes = volume!.map { $0 * 10 }.changes.values
    let heard = Task {
      var heard: [String] = []
      for await change in changes { heard.append("\(change.old) -> \(change.new)") }
      return heard
    }
    volume!.value = 2
    volume!.value = 3
    volume = nil
    #expect(await heard.value == ["10 -> 20", "20 -> 30"])
  }

  @Test(
    "A derived value's subscriptions keep its core, not the value; the last one gone releases it")
  func lifetime() {
    let volume = ObservableValue(1)
    weak var derived: DerivedValue<Int>?
    weak var core: AnyObject?
    var heard: [Int] = []
    var subscription: EventSubscription?
    do {
      let made = volume.map { $0 + 1 }.combined(with: volume) { $0 + $1 }
      (derived, core) = (made, made.core)
      #expect(made.value == 3)
      subscription = made.observe { heard.append($1) }
    }
    #expect(derived == nil)
    volume.value = 2
    // One assignment reaches it through both sources: two changes, the
    // first made of the new value and the old one, as with Combine.
    #expect(heard == [4, 5])
    #expect(core != nil)
    subscription = nil
    #expect(!volume.changes.hasObservers, "the subscriptions upstream ended with the last one")
    #expect(core == nil)
    _ = subscription
  }

  @Test("Generic code over ObservableValueProtocol takes an observable and a derived value alike")
  func genericOverTheProtocol() {
    func shown(_ value: some ObservableValueProtocol<Int>, into heard: Locked<[Int]>)
      -> EventSubscription
    {
      value.observeValue { new in heard.withLock { $0.append(new) } }
    }
    let count = ObservableValue(1)
    let heard = Locked<[Int]>([])
    let subscriptions = [shown(count, into: heard), shown(count.map { $0 * 10 }, into: heard)]
    count.value = 2
    #expect(heard.withLock { $0 } == [1, 10, 2, 20])
    withExtendedLifetime(subscriptions) {}
  }

  @Test("The actor form: an actor lent isolated hears each change of a derived value")
  func actorForm() async {
    actor Meter {
      var heard: [String] = []
      func follow(_ level: DerivedValue<Int>) {
        level.observe(actor: self) { meter, old, new in meter.heard.append("\(old) -> \(new)") }
      }
    }
    let volume = ObservableValue(0.5)
    let level = volume.map { Int($0 * 10) }
    let meter = Meter()
    await meter.follow(level)
    volume.value = 0.8
    volume.value = 0.2
    for _ in 0..<10_000 {
      if await meter.heard.count >= 2 { break }
      await Task.yield()
    }
    #expect(await meter.heard == ["5 -> 8", "8 -> 2"])
    #expect(volume.changes.hasObservers, "the actor lives: its subscription lasts")
  }

  #if canImport(Observation)
  @Test("Observation tracks a derived value's reads, observed or not")
  func observation() {
    let volume = ObservableValue(0.5)
    let percent = volume.map { Int($0 * 100) }
    let untracked = Locked(0)
    _ = withObservationTracking {
      percent.value
    } onChange: {
      untracked.withLock { $0 += 1 }
    }
    volume.value = 0.6
    #expect(untracked.withLock { $0 } == 1, "not observed: the source's change tells the reader")

    let subscription = percent.observe { _, _ in }
    let tracked = Locked<[Int]>([])
    _ = withObservationTracking {
      percent.value
    } onChange: {
      tracked.withLock { $0.append(percent.value) }
    }
    volume.value = 0.7
    #expect(tracked.withLock { $0 } == [70], "observed: told once the new value is stored")

    let afterEnd = Locked(0)
    _ = withObservationTracking {
      percent.value
    } onChange: {
      afterEnd.withLock { $0 += 1 }
    }
    subscription.cancel()
    #expect(afterEnd.withLock { $0 } == 1, "no longer observed: a reader is told to read again")
  }
  #endif
}

@Suite("Events: removing duplicates")
struct EventRemoveDuplicatesTests {
  @Test("removeDuplicates sends a value only when it differs from the one sent before")
  func removesDuplicates() {
    let sender = EventSender<Int>()
    var heard: [Int] = []
    let subscription = sender.event.removeDuplicates().observe { heard.append($0) }
    for value in [1, 1, 2, 2, 2, 1, 3, 3] { sender.send(value) }
    #expect(heard == [1, 2, 1, 3])
    subscription.cancel()
    #expect(!sender.event.hasObservers, "subscribed upstream only while observed")
  }

  @Test("A new connection starts anew: its first value is sent")
  func startsAnew() {
    let sender = EventSender<Int>()
    let distinct = sender.event.removeDuplicates()
    var heard: [Int] = []
    var subscription = distinct.observe { heard.append($0) }
    sender.send(1)
    subscription.cancel()
    subscription = distinct.observe { heard.append($0) }
    sender.send(1)
    sender.send(1)
    #expect(heard == [1, 1])
    withExtendedLifetime(subscription) {}
  }

  @Test("From main-actor code and from an actor, each subscription hears on its isolation")
  @MainActor
  func isolations() async {
    actor Listener {
      var heard: [Int] = []
      var subscription: EventSubscription?
      func follow(_ event: Event<Int>) {
        subscription = event.observe { self.heard.append($0) }
      }
      func stop() { subscription = nil }
    }
    let sender = EventSender<Int>()
    let distinct = sender.event.removeDuplicates()
    var heard: [Int] = []
    let subscription = distinct.observe {
      MainActor.assertIsolated()
      heard.append($0)
    }
    let listener = Listener()
    await listener.follow(distinct)
    for value in [1, 1, 2, 2] { sender.send(value) }
    #expect(heard == [1, 2])
    for _ in 0..<10_000 {
      if await listener.heard.count >= 2 { break }
      await Task.yield()
    }
    #expect(await listener.heard == [1, 2])
    await listener.stop()
    withExtendedLifetime(subscription) {}
  }
}
