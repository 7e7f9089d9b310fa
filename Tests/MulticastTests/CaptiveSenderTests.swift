// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Multicast
import Testing

/// The value thread A sends, and the one that ends thread B's flood.
private let ownValue = -1
private let lastValue = Int.max

/// What the slow handler heard, and when it heard the last value.
private final class SlowListener: Sendable {
  let heard = Locked<[Int]>([])
  let heardLast = Signal()
  /// Whether A's own value is being delivered: B waits for it to flood.
  let deliveringOwnValue = Locked(false)
  /// Whether B has sent: A's handler waits for it, so that B's values
  /// arrive while A is delivering.
  let floodStarted = Locked(false)
  /// The thread of A's send, and how many values it delivered: counted,
  /// not timed, since a busy machine stretches any time.
  let senderThread = Locked<pthread_t?>(nil)
  let deliveredBySender = Locked(0)

  func hear(_ value: Int) {
    if value == ownValue {
      deliveringOwnValue.withLock { $0 = true }
      while !floodStarted.withLock({ $0 }) { Thread.yield() }
    }
    if let sender = senderThread.withLock({ $0 }), pthread_equal(sender, pthread_self()) != 0 {
      deliveredBySender.withLock { $0 += 1 }
    }
    busy(nanoseconds: 20_000)
    heard.withLock { $0.append(value) }
    if value == lastValue { heardLast.raise() }
  }
}

/// Subscribes where no actor is, so that the handler runs on whichever
/// thread delivers.
private func observeFromNoActor(_ event: Event<Int>, _ listener: SlowListener)
  -> EventSubscription
{
  event.observe { listener.hear($0) }
}

@Suite("A sending thread and another's flood")
struct CaptiveSenderTests {
  /// A send held by another thread's values.
  ///
  /// Thread A sends one value to a handler that takes 20 µs; thread B then
  /// sends `flood` values as fast as it can, each queued behind the delivery
  /// A is making. A deliverer with no bound would deliver them all before its
  /// send returned, its time growing with the flood, 20 µs a value.
  @Test(
    "A send returns after delivering its own value and about a millisecond more while another thread floods the event, and the rest arrives in order, none lost",
    .serialized, .timeLimit(.minutes(15)), arguments: [4_000, 16_000])
  func sendIsNotHeldByAnotherThreadsFlood(flood: Int) async {
    let sender = EventSender<Int>()
    let listener = SlowListener()
    let subscription = observeFromNoActor(sender.event, listener)

    async let flooder: Bool = onNewThread {
      while !listener.deliveringOwnValue.withLock({ $0 }) { Thread.yield() }
      for value in 0..<flood {
        sender.send(value)
        if value == 0 { listener.floodStarted.withLock { $0 = true } }
      }
      sender.send(lastValue)
      // Delivering the flood is slow under a sanitizer on a busy machine:
      // the wait is long, and ends only a test that lost the last value.
      return listener.heardLast.wait(until: Date().addingTimeInterval(600))
    }
    await onNewThread {
      listener.senderThread.withLock { $0 = pthread_self() }
      sender.send(ownValue)
    }
    let heardLast = await flooder
    let delivered = listener.deliveredBySender.withLock { $0 }

    // Its own value, then at most about half a millisecond of others'
    // (checked between batches of at most 256), then a drain's.
    #expect(
      delivered <= 1 + 3 * 256,
      "the send of one value delivered \(delivered) values while \(flood) were sent after it")
    #expect(heardLast, "the last value never arrived")
    let heard = listener.heard.withLock { $0 }
    let expected = [ownValue] + Array(0..<flood) + [lastValue]
    if heard != expected {
      let firstWrong =
        heard.indices.first { $0 >= expected.count || heard[$0] != expected[$0] } ?? heard.count
      Issue.record(
        "heard \(heard.count) of \(expected.count) values; the first wrong at \(firstWrong): \(heard[firstWrong...].prefix(5))"
      )
    }
    withExtendedLifetime(subscription) {}
  }
}
