// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// A target that records the values it hears.
private final class DerivedTarget {
  var heard: [String] = []
}

@Suite("Events derived with map, filter and compactMap")
struct DerivedEventTests {
  @Test("map, filter and compactMap deliver what they make, in order, before the send returns")
  func transforms() {
    let sender = EventSender<Int>()
    var heard: [String] = []
    let doubled = sender.event.map { $0 * 2 }.observe { heard.append("double \($0)") }
    let even = sender.event.filter { $0 % 2 == 0 }.observe { heard.append("even \($0)") }
    let halves = sender.event.compactMap { $0 % 2 == 0 ? $0 / 2 : nil }.observe {
      heard.append("half \($0)")
    }
    sender.send(1)
    sender.send(2)
    #expect(heard == ["double 2", "double 4", "even 2", "half 1"])
    withExtendedLifetime((doubled, even, halves)) {}
  }

  @Test(
    "A derived event whose last subscriptions end by a target's death and a cancel lets its upstream go once the dead one is swept"
  )
  func disconnectsAfterTheDeadAreSwept() {
    let sender = EventSender<Int>()
    let derived = sender.event.map { $0 }
    var target: DerivedTarget? = DerivedTarget()
    derived.observe(target!) { target, value in target.heard.append("\(value)") }
    let other = derived.observe { _ in }
    target = nil
    other.cancel()
    // The notice came while the dead registration was still there; the
    // sends' walks sweep it.
    for value in 0..<20 { sender.send(value) }
    #expect(!sender.hasObservers)
  }

  @Test("Derived events chain, and a chain subscribes upstream only while it has subscriptions")
  func chains() {
    let sender = EventSender<Int>()
    let labels = sender.event.filter { $0 > 0 }.map { "#\($0)" }
      .compactMap { label -> String? in label.count < 3 ? label : nil }
    #expect(!sender.hasObservers, "no subscription yet: nothing upstream")
    var heard: [String] = []
    let subscription = labels.observe { heard.append($0) }
    #expect(sender.hasObservers)
    for value in [-1, 4, 12, 5] { sender.send(value) }
    #expect(heard == ["#4", "#5"])
    subscription.cancel()
    #expect(!sender.hasObservers, "the last subscription gone: upstream too")
    let again = labels.observe { heard.append("again \($0)") }
    sender.send(3)
    #expect(heard == ["#4", "#5", "again #3"])
    withExtendedLifetime(again) {}
  }

  @Test(
    "A released subscription ends the upstream one, and a dead target's is ended at the next send")
  func upstreamEnds() {
    let sender = EventSender<Int>()
    let mapped = sender.event.map { String($0) }
    var released: EventSubscription? = mapped.observe { _ in }
    #expect(sender.hasObservers)
    withExtendedLifetime(released) {}
    released = nil
    #expect(!sender.hasObservers)

    var target: DerivedTarget? = DerivedTarget()
    mapped.observe(target!) { target, value in target.heard.append(value) }
    sender.send(1)
    #expect(target?.heard == ["1"])
    target = nil
    #expect(sender.hasObservers, "a target's death is noticed when the event next looks")
    sender.send(2)
    #expect(!sender.hasObservers)
    #expect(!mapped.hasObservers)
  }

  @Test(
    "A derived event lives while it has subscriptions, and no longer once they end and it is let go"
  )
  func lifetime() {
    let sender = EventSender<Int>()
    var heard: [Int] = []
    weak var core: _EventCore<Int>?
    var subscription: EventSubscription?
    do {
      let mapped = sender.event.map { $0 + 1 }
      core = mapped.core
      subscription = mapped.observe { heard.append($0) }
    }
    sender.send(1)
    #expect(heard == [2], "the subscription keeps the derived event")
    #expect(core != nil)
    subscription = nil
    #expect(core == nil, "nothing keeps a derived event with no subscription")
    withExtendedLifetime(subscription) {}
  }

  @Test("A derived event of a replaying sender replays what its transform made of the latest value")
  func replaysTransformedLatest() {
    let sender = EventSender<Int>(replaysLatest: true)
    sender.send(1)
    var heard: [String] = []
    let mapped = sender.event.map { $0 * 10 }
    let first = mapped.observe { heard.append("first \($0)") }
    #expect(heard == ["first 10"])
    let second = mapped.observe { heard.append("second \($0)") }
    #expect(heard == ["first 10", "second 10"])
    sender.send(2)
    #expect(heard == ["first 10", "second 10", "first 20", "second 20"])
    withExtendedLifetime((first, second)) {}

    // Subscribed again after its last subscription went, it replays the
    // value sent meanwhile, not the one it had.
    sender.send(3)
    heard = []
    let third = mapped.observe { heard.append("third \($0)") }
    #expect(heard == ["third 30"])
    withExtendedLifetime(third) {}

    // A sender that does not replay: neither does the derived event.
    let plain = EventSender<Int>()
    plain.send(1)
    heard = []
    let fourth = plain.event.map { $0 }.observe { heard.append("fourth \($0)") }
    #expect(heard == [])
    withExtendedLifetime(fourth) {}
  }

  @Test("A filtered or compact-mapped event replays the latest value only if it passes")
  func replaysOnlyWhatPasses() {
    let sender = EventSender<Int>(replaysLatest: true)
    let even = sender.event.filter { $0.isMultiple(of: 2) }
    let halves = sender.event.compactMap { $0.isMultiple(of: 2) ? $0 / 2 : nil }
    var heard: [String] = []
    sender.send(1)
    var kept = [
      even.observe { heard.append("even \($0)") }, halves.observe { heard.append("half \($0)") },
    ]
    #expect(heard == [])
    sender.send(4)
    #expect(heard == ["even 4", "half 2"])
    heard = []
    kept += [
      even.observe { heard.append("late even \($0)") },
      halves.observe { heard.append("late half \($0)") },
    ]
    #expect(heard == ["late even 4", "late half 2"])
    // The latest value no longer passes: a new subscription hears nothing.
    sender.send(5)
    heard = []
    kept += [
      even.observe { heard.append("later even \($0)") },
      halves.observe { heard.append("later half \($0)") },
    ]
    #expect(heard == [])
    withExtendedLifetime(kept) {}
  }

  @Test(
    "A released sender takes its derived event with it, even while a dead target counts as subscribed"
  )
  func releasedSender() {
    weak var upstream: _EventCore<Int>?
    weak var derived: _EventCore<Int>?
    do {
      let sender = EventSender<Int>()
      let mapped = sender.event.map { $0 + 1 }
      var target: DerivedTarget? = DerivedTarget()
      mapped.observe(target!) { target, value in target.heard.append("\(value)") }
      target = nil
      (upstream, derived) = (sender.core, mapped.core)
      #expect(sender.hasObservers, "the dead target is not noticed until a send")
    }
    #expect(upstream == nil)
    #expect(derived == nil)
  }

  @Test("The transform runs once per value, whatever the number of subscriptions")
  func transformOncePerValue() {
    let sender = EventSender<Int>()
    let calls = Locked(0)
    let mapped = sender.event.map { value in
      calls.withLock { $0 += 1 }
      return value
    }
    let subscriptions = (0..<5).map { _ in mapped.observe { _ in } }
    sender.send(1)
    sender.send(2)
    #expect(calls.withLock { $0 } == 2)
    withExtendedLifetime(subscriptions) {}
  }

  @Test("A derived event's own subscriptions, targets and notices are its own")
  func ownRegistry() {
    let sender = EventSender<Int>()
    let other = sender.event.observe { _ in }
    let mapped = sender.event.map { "\($0)" }
    #expect(sender.hasObservers)
    #expect(!mapped.hasObservers)
    let target = DerivedTarget()
    mapped.observe(target) { target, value in target.heard.append(value) }
    mapped.observe(target) { target, value in target.heard.append("again " + value) }
    sender.send(1)
    #expect(target.heard == ["1", "again 1"])
    #expect(mapped.removeObservers(target) == 2)
    sender.send(2)
    #expect(target.heard == ["1", "again 1"])
    #expect(!mapped.hasObservers)
    withExtendedLifetime(other) {}
  }

  @Test("A value sent from a handler of the derived event comes after the one under way")
  func nestedSend() {
    let sender = EventSender<Int>()
    var heard: [String] = []
    let mapped = sender.event.map { $0 * 10 }
    let first = mapped.observe { value in
      heard.append("first \(value)")
      if value == 10 { sender.send(2) }
    }
    let second = mapped.observe { heard.append("second \($0)") }
    sender.send(1)
    #expect(heard == ["first 10", "second 10", "first 20", "second 20"])
    withExtendedLifetime((first, second)) {}
  }

  @Test(
    "A main-actor subscription hears on the main actor, in order, whoever sends; at once when the main actor sends"
  )
  func mainActorSubscription() async {
    let sender = EventSender<Int>()
    let count = 2_000
    let log = await MainActor.run { MainActorLog() }
    let subscription = await MainActor.run {
      sender.event.map { $0 + 1 }.observe { value in
        MainActor.assertIsolated()
        log.values.append(value)
      }
    }
    await onNewThread {
      for value in 0..<count { sender.send(value) }
    }
    await waitForDeliveries()
    await MainActor.run {
      #expect(log.values == Array(1...count))
      sender.send(count)
      #expect(log.values.last == count + 1, "delivered before the main actor's send returned")
    }
    withExtendedLifetime(subscription) {}
  }

  @Test(
    "Three threads sending through a derived event: each subscription hears every value of each, in order"
  )
  func concurrentSenders() async {
    let (producers, count) = (3, 3_000)
    let sender = EventSender<Delivery>()
    let mapped = sender.event.map { Delivery(producer: $0.producer, value: $0.value) }
    let received = Locked<[Delivery]>([])
    let mainReceived = await MainActor.run { MainActorDeliveries() }
    let subscription = mapped.observe { delivery in received.withLock { $0.append(delivery) } }
    let mainSubscription = await MainActor.run {
      mapped.observe { delivery in mainReceived.values.append(delivery) }
    }
    await withTaskGroup(of: Void.self) { group in
      for producer in 0..<producers {
        group.addTask {
          await onNewThread {
            for value in 0..<count { sender.send(Delivery(producer: producer, value: value)) }
          }
        }
      }
    }
    await waitForDeliveries()
    let window = RegistrationWindow.always(producers: producers, count: count)
    #expect(deliveryProblems(received.withLock { $0 }, window: window) == [])
    #expect(await deliveryProblems(mainReceived.values, window: window) == [])
    withExtendedLifetime((subscription, mainSubscription)) {}
  }

  @Test(
    "Subscribing and cancelling from several threads while another sends: upstream is subscribed exactly while the derived event is"
  )
  func churn() async {
    let sender = EventSender<Int>()
    let mapped = sender.event.map { $0 }
    let stop = Locked(false)
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        await onNewThread {
          var value = 0
          while !stop.withLock({ $0 }) {
            sender.send(value)
            value += 1
          }
        }
      }
      for _ in 0..<2 {
        group.addTask {
          await onNewThread {
            for _ in 0..<2_000 {
              let subscription = mapped.observe { _ in }
              subscription.cancel()
            }
          }
        }
      }
      await group.next()
      await group.next()
      stop.withLock { $0 = true }
    }
    #expect(!mapped.hasObservers)
    #expect(!sender.hasObservers, "no subscription left: upstream ended")
  }
}

/// Values heard on the main actor.
@MainActor private final class MainActorLog {
  var values: [Int] = []
}

/// Deliveries heard on the main actor.
@MainActor private final class MainActorDeliveries {
  var values: [Delivery] = []
}
