// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// A target that records what it hears.
private final class OnceTarget {
  var heard: [Int] = []
}

@Suite("Observing once")
struct ObserveOnceTests {
  @Test("An event's handler hears the next value only, and the subscription ends before it runs")
  func eventOnce() {
    let sender = EventSender<Int>()
    var heard: [Int] = []
    let subscription = sender.event.observeOnce { value in
      heard.append(value)
      #expect(!sender.hasObservers, "the subscription ended before its handler ran")
    }
    #expect(sender.hasObservers)
    sender.send(1)
    sender.send(2)
    #expect(heard == [1])
    #expect(!sender.hasObservers)
    withExtendedLifetime(subscription) {}
  }

  @Test("A value the handler sends does not reach it, and reaches the others after it, in order")
  func nestedSend() {
    let sender = EventSender<Int>()
    var heard: [String] = []
    let once = sender.event.observeOnce { value in
      heard.append("once \(value)")
      sender.send(value + 1)
    }
    let always = sender.event.observe { heard.append("always \($0)") }
    sender.send(1)
    #expect(heard == ["once 1", "always 1", "always 2"])
    withExtendedLifetime((once, always)) {}
  }

  @Test("Cancelled or released before a value, it never runs")
  func cancelledBefore() {
    let sender = EventSender<Int>()
    var heard: [Int] = []
    let cancelled = sender.event.observeOnce { heard.append($0) }
    cancelled.cancel()
    var released: EventSubscription? = sender.event.observeOnce { heard.append($0 * 10) }
    withExtendedLifetime(released) {}
    released = nil
    sender.send(1)
    #expect(heard.isEmpty)
    #expect(!sender.hasObservers)
  }

  @Test("The target form hears one value while its target lives; a released target hears none")
  func targetOnce() {
    let sender = EventSender<Int>()
    let target = OnceTarget()
    sender.event.observeOnce(target) { target, value in target.heard.append(value) }
    var released: OnceTarget? = OnceTarget()
    weak let gone = released
    sender.event.observeOnce(released!) { target, value in target.heard.append(value) }
    released = nil
    #expect(gone == nil)
    sender.send(1)
    sender.send(2)
    #expect(target.heard == [1])
    #expect(!sender.hasObservers)
  }

  @Test("An observable value's handler hears the next change only")
  func valueOnce() {
    let volume = ObservableValue(0)
    var heard: [String] = []
    let subscription = volume.observeOnce { old, new in heard.append("\(old) -> \(new)") }
    volume.value = 1
    volume.value = 2
    #expect(heard == ["0 -> 1"])
    #expect(!volume.changes.hasObservers)
    withExtendedLifetime(subscription) {}
  }

  @Test(
    "Threads and tasks sending at once: each subscription for one value, where no actor is and on the main actor, hears exactly one of the values sent",
    arguments: [false, true])
  func manySenders(onMainActor: Bool) async {
    let rounds = 200
    let sender = EventSender<Int>()
    for round in 0..<rounds {
      let heard = Locked<[Int]>([])
      let subscription: EventSubscription
      if onMainActor {
        subscription = await MainActor.run {
          sender.event.observeOnce { value in heard.withLock { $0.append(value) } }
        }
      } else {
        subscription = sender.event.observeOnce { value in heard.withLock { $0.append(value) } }
      }
      await withTaskGroup(of: Void.self) { group in
        for thread in 0..<2 {
          group.addTask {
            await onNewThread { for value in 0..<50 { sender.send(thread * 1_000 + value) } }
          }
        }
        group.addTask { for value in 0..<50 { sender.send(2_000 + value) } }
      }
      await waitForDeliveries()
      let values = heard.withLock { $0 }
      #expect(values.count == 1, "round \(round) heard \(values)")
      #expect(!sender.hasObservers, "round \(round) left a subscription")
      withExtendedLifetime(subscription) {}
    }
  }
}
