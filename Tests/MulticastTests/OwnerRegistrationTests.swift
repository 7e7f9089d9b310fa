// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// Lines heard, in order.
private final class OwnerTestLines {
  var lines: [String] = []
}

/// Something a handler captures, which says when it is released.
private final class OwnerTestCanary {
  let released: OwnerTestLines
  init(_ released: OwnerTestLines) { self.released = released }
  deinit { released.lines.append("released") }
}

/// An object that can be a subscription's target.
private final class OwnerTestTarget {}

@Suite("An event's own registrations, and registrations that end last")
struct OwnerRegistrationTests {
  @Test(
    "Closure subscriptions count as alive with no weak reference; dead targets do not; a thousand subscribed and cancelled leave the count as it was"
  )
  func countsAndChurn() {
    let sender = EventSender<Int>()
    var targets = (0..<3).map { _ in OwnerTestTarget() }
    var kept = targets.map { target in sender.event.observe(target) { _, _ in } }
    kept.append(sender.event.observe { _ in })
    #expect(sender.liveCount == 4)
    targets.removeAll()
    #expect(sender.liveCount == 1)
    for _ in 0..<1_000 { sender.event.observe { _ in }.cancel() }
    sender.checkInvariants()
    #expect(sender.liveCount == 1)
    #expect(sender.event.hasObservers)
    kept.removeAll()
    #expect(!sender.event.hasObservers)
    sender.checkInvariants()
  }

  @Test(
    "While subscriptions are made and cancelled newest first, a dead target's subscription is still dropped, with what its handler captured, without a send"
  )
  func deadTargetDroppedDuringChurn() {
    let sender = EventSender<Int>()
    let released = OwnerTestLines()
    var target: OwnerTestTarget? = OwnerTestTarget()
    sender.event.observe(target!) { [canary = OwnerTestCanary(released)] _, _ in
      withExtendedLifetime(canary) {}
    }
    let staying = sender.event.observe { _ in }
    target = nil
    #expect(released.lines.isEmpty)
    for _ in 0..<100 { sender.event.observe { _ in }.cancel() }
    #expect(released.lines == ["released"])
    #expect(sender.liveCount == 1)
    sender.checkInvariants()
    withExtendedLifetime(staying) {}
  }

  @Test("A subscription cancelled by an earlier one's handler, during a send, is not reached")
  func lastCancelledDuringSend() {
    let sender = EventSender<Int>()
    let heard = OwnerTestLines()
    var second: EventSubscription? = nil
    let first = sender.event.observe { _ in
      heard.lines.append("first")
      second?.cancel()
    }
    second = sender.event.observe { _ in heard.lines.append("second") }
    sender.send(1)
    sender.send(2)
    sender.checkInvariants()
    withExtendedLifetime(first) {}
    #expect(heard.lines == ["first", "first"])
  }

  @Test(
    "A handler that makes the buffer grow, then cancels newest first, and cancels a subscription after it: the send reaches the rest, not the cancelled one"
  )
  func lastCancelledWhileAWalkReadsARetiredBuffer() {
    let sender = EventSender<Int>()
    let heard = OwnerTestLines()
    var last: EventSubscription? = nil
    var extra: [EventSubscription] = []
    let first = sender.event.observe { value in
      heard.lines.append("first \(value)")
      guard value == 1 else { return }
      // More than the buffer holds, made while this send reads it: the
      // buffer is replaced, and this send goes on reading the old one.
      for index in 0..<8 {
        extra.append(sender.event.observe { _ in heard.lines.append("extra \(index)") })
      }
      for subscription in extra.reversed() { subscription.cancel() }
      extra.removeAll()
      last?.cancel()
      sender.checkInvariants()
    }
    let second = sender.event.observe { value in heard.lines.append("second \(value)") }
    let third = sender.event.observe { value in heard.lines.append("third \(value)") }
    last = sender.event.observe { value in heard.lines.append("last \(value)") }
    sender.send(1)
    sender.send(2)
    sender.checkInvariants()
    withExtendedLifetime((first, second, third)) {}
    #expect(
      heard.lines == ["first 1", "second 1", "third 1", "first 2", "second 2", "third 2"])
  }
}
