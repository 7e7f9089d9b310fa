// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// A target for target-action subscriptions.
final class Listener {
  let name: String
  let log: Log
  init(_ name: String, log: Log) {
    self.name = name
    self.log = log
  }
  func didReceive(_ value: Int) { log.append("\(name) \(value)") }
  func didTick() { log.append("\(name) tick") }
}

@Suite("Events")
struct EventTests {
  @Test("Subscribers are called in the order they subscribed")
  func order() {
    let log = Log()
    let sender = EventSender<Int>()
    let listener = Listener("target", log: log)
    let first = sender.event.observe { log.append("first \($0)") }
    sender.event.observe(listener, Listener.didReceive)
    let last = sender.event.observe { log.append("last \($0)") }
    sender.send(1)
    #expect(log.entries == ["first 1", "target 1", "last 1"])
    withExtendedLifetime((first, last, listener)) {}
  }

  @Test("The exposed event cannot be turned back into the sender")
  func eventCannotSend() {
    let sender = EventSender<Int>()
    let event: Any = sender.event
    #expect(!(event is EventSender<Int>))
    #expect(type(of: event) == Event<Int>.self)
  }

  @Test("A closure subscription ends when its token is released")
  func tokenRelease() {
    let log = Log()
    let sender = EventSender<Int>()
    var subscription: EventSubscription? = sender.event.observe { log.append("got \($0)") }
    sender.send(1)
    subscription = nil
    sender.send(2)
    #expect(log.entries == ["got 1"])
    #expect(!sender.hasObservers)
    _ = subscription
  }

  @Test("Cancelling ends a subscription, and cancelling twice is harmless")
  func cancelTwice() {
    let log = Log()
    let sender = EventSender<Int>()
    let subscription = sender.event.observe { log.append("got \($0)") }
    subscription.cancel()
    subscription.cancel()
    sender.send(1)
    #expect(log.entries.isEmpty)
    sender.checkInvariants()
  }

  @Test("Subscriptions kept in a set end together when it is emptied")
  func setOfSubscriptions() {
    let log = Log()
    let sender = EventSender<Int>()
    var bag: Set<EventSubscription> = []
    for name in ["a", "b", "c"] {
      sender.event.observe { log.append("\(name) \($0)") }.store(in: &bag)
    }
    #expect(bag.count == 3)
    sender.send(1)
    bag.removeAll()
    sender.send(2)
    #expect(log.entries == ["a 1", "b 1", "c 1"])
  }

  @Test("A method taking the value is called until its target dies")
  func targetActionWithValue() {
    let log = Log()
    let sender = EventSender<Int>()
    var listener: Listener? = Listener("target", log: log)
    sender.event.observe(listener!, Listener.didReceive)
    sender.send(1)
    listener = nil
    sender.send(2)
    #expect(log.entries == ["target 1"])
  }

  @Test("A method taking nothing observes a Void event")
  func targetActionWithoutValue() {
    let log = Log()
    let sender = EventSender<Void>()
    let listener = Listener("target", log: log)
    sender.event.observe(listener, Listener.didTick)
    sender.send()
    sender.send()
    #expect(log.entries == ["target tick", "target tick"])
  }

  @Test("A target passed to its handler is not retained by the subscription")
  func targetIsNotRetained() {
    let tracker = LifetimeTracker()
    let sender = EventSender<Int>()
    var total = 0
    do {
      let target = tracker.instance()
      sender.event.observe(target) { _, value in total += value }
      sender.send(5)
      #expect(tracker.live == 1)
    }
    #expect(tracker.live == 0)
    sender.send(5)
    #expect(total == 5)
  }

  @Test("A target-bound subscription may end early through its token")
  func targetBoundCancel() {
    let log = Log()
    let sender = EventSender<Int>()
    let listener = Listener("target", log: log)
    let subscription = sender.event.observe(listener, Listener.didReceive)
    subscription.cancel()
    sender.send(1)
    #expect(log.entries.isEmpty)
    withExtendedLifetime(listener) {}
  }

  @Test("Discarding a target-bound token does not end the subscription")
  func targetBoundTokenDiscarded() {
    let log = Log()
    let sender = EventSender<Int>()
    let listener = Listener("target", log: log)
    _ = sender.event.observe(listener, Listener.didReceive)
    sender.send(1)
    #expect(log.entries == ["target 1"])
    withExtendedLifetime(listener) {}
  }

  @Test("Removing a target's observers ends only that target's subscriptions")
  func removeObserversByTarget() {
    let log = Log()
    let sender = EventSender<Int>()
    let (a, b) = (Listener("a", log: log), Listener("b", log: log))
    sender.event.observe(a, Listener.didReceive)
    sender.event.observe(b, Listener.didReceive)
    sender.event.observe(a) { me, value in me.log.append("a again \(value)") }
    #expect(sender.event.removeObservers(a) == 2)
    #expect(sender.event.removeObservers(a) == 0)
    sender.send(1)
    #expect(log.entries == ["b 1"])
    withExtendedLifetime((a, b)) {}
  }

  @Test("A permanent subscription lasts as long as the event")
  func observeForever() {
    let log = Log()
    let sender = EventSender<Int>()
    sender.event.observeForever { log.append("forever \($0)") }
    sender.send(1)
    sender.send(2)
    #expect(log.entries == ["forever 1", "forever 2"])
    #expect(sender.hasObservers)
  }

  @Test("The owner hears when the first observer arrives and the last one goes")
  func firstAndLastNotices() {
    let log = Log()
    let sender = EventSender<Int>(
      onFirstObserver: { log.append("first") }, onLastObserverGone: { log.append("last") })
    let a = sender.event.observe { _ in }
    let b = sender.event.observe { _ in }
    #expect(log.entries == ["first"])
    a.cancel()
    #expect(log.entries == ["first"])
    b.cancel()
    #expect(log.entries == ["first", "last"])
    let c = sender.event.observe { _ in }
    #expect(log.entries == ["first", "last", "first"])
    withExtendedLifetime(c) {}
  }

  @Test("A notice that ends or makes subscriptions is followed by the notices it causes, in order")
  func reentrantNotices() {
    let log = Log()
    var opening: EventSubscription?
    var again: EventSubscription?
    var sender: EventSender<Int>!
    sender = EventSender<Int>(
      onFirstObserver: {
        log.append("first begins")
        opening?.cancel()
        log.append("first ends")
      },
      onLastObserverGone: {
        log.append("last begins")
        if again == nil { again = sender.event.observe { _ in } }
        log.append("last ends")
      })
    // While `observe` runs, `opening` is still nil: the notice cancels nothing.
    opening = sender.event.observe { _ in }
    #expect(log.entries == ["first begins", "first ends"])
    log.reset()
    // Cancelling the only subscription tells "last"; that notice subscribes,
    // which tells "first" once "last" has returned, never inside it.
    opening?.cancel()
    #expect(log.entries == ["last begins", "last ends", "first begins", "first ends"])
    #expect(sender.hasObservers)
    withExtendedLifetime(again) {}
    sender = nil  // The notices capture `sender`: break the cycle.
  }

  @Test("The last observer dying counts as going, noticed at the next send")
  func lastObserverDies() {
    let log = Log()
    let sender = EventSender<Int>(
      onFirstObserver: { log.append("first") }, onLastObserverGone: { log.append("last") })
    var listener: Listener? = Listener("target", log: log)
    sender.event.observe(listener!, Listener.didReceive)
    listener = nil
    #expect(log.entries == ["first"])
    sender.send(1)
    #expect(log.entries == ["first", "last"])
    sender.send(2)
    #expect(log.entries == ["first", "last"])
  }

  @Test("Sending with no observers does nothing")
  func sendWithoutObservers() {
    let sender = EventSender<Int>(onLastObserverGone: { Issue.record("no observer ever came") })
    sender.send(1)
    #expect(!sender.hasObservers)
    #expect(!sender.event.hasObservers)
  }

  @Test("Subscribing and cancelling during a delivery follow the core's re-entrancy rules")
  func reentrancy() {
    let log = Log()
    let sender = EventSender<Int>()
    var late: EventSubscription?
    var victim: EventSubscription?
    let first = sender.event.observe { value in
      log.append("first \(value)")
      if late == nil { late = sender.event.observe { log.append("late \($0)") } }
      victim?.cancel()
    }
    victim = sender.event.observe { log.append("victim \($0)") }
    sender.send(1)
    sender.send(2)
    #expect(log.entries == ["first 1", "first 2", "late 2"])
    withExtendedLifetime((first, late)) {}
  }

  @Test(
    "A handler may send again: its send goes after the delivery in progress, before the outer send returns"
  )
  func nestedSend() {
    let log = Log()
    let sender = EventSender<Int>()
    let a = sender.event.observe { value in
      log.append("a \(value)")
      if value == 1 { sender.send(2) }
    }
    let b = sender.event.observe { log.append("b \($0)") }
    sender.send(1)
    #expect(log.entries == ["a 1", "b 1", "a 2", "b 2"])
    withExtendedLifetime((a, b)) {}
  }

  @Test("Many subscriptions come and go without the storage growing")
  func churn() {
    let sender = EventSender<Int>()
    var kept: [EventSubscription] = []
    for round in 0..<20_000 {
      let subscription = sender.event.observe { _ in }
      if round.isMultiple(of: 100) { kept.append(subscription) }
    }
    sender.checkInvariants()
    #expect(sender.storageCapacity < 2_000)
    #expect(sender.liveCount == kept.count)
  }
}

/// Main-actor code subscribes with closures that touch main-actor state.
@MainActor
final class MainActorScreen {
  var shown: [Int] = []
  var subscription: EventSubscription?

  init(_ event: Event<Int>) {
    subscription = event.observe { [weak self] value in self?.shown.append(value) }
  }
}

@Suite("Events on the main actor")
@MainActor
struct EventMainActorTests {
  @Test("A main-actor object observes an event with a closure that touches its state")
  func mainActorObserver() {
    let sender = EventSender<Int>()
    let screen = MainActorScreen(sender.event)
    sender.send(1)
    sender.send(2)
    #expect(screen.shown == [1, 2])
  }
}
