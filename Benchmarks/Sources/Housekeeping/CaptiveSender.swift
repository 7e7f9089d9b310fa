// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import CHeapStatistics
import Dispatch
import Foundation
import Multicast
import Synchronization

// Thread A sends one value to a subscription made where no actor is, whose
// handler works about 20 µs; thread B sends on the same event as fast as it
// can meanwhile. How long A's one send holds A, and whether every value
// arrives once, in order.

/// B sends for this long, or until it has sent `captiveCap` values: at 20 µs
/// a value, delivering what B sent takes about 20 s, so a run that keeps A
/// until the end still ends within a minute.
let captiveSending = Duration.seconds(1)
let captiveCap = 1_000_000
let handlerWork = Duration.microseconds(20)

/// What the handler heard and the threads measured, shared between them.
final class CaptiveRun: Sendable {
  let delivered = Atomic<Int>(0)
  let nextFromB = Atomic<Int>(0)
  let fromA = Atomic<Int>(0)
  let misordered = Atomic<Int>(0)
  let isADelivering = Atomic<Bool>(false)
  let hasBSent = Atomic<Bool>(false)
  let sentByB = Atomic<Int>(0)
  let backlogPeak = Atomic<Int>(0)
  let heapAtBEnd = Atomic<Int64>(0)
  let bTook = Atomic<Int64>(0)
  let aTook = Atomic<Int64>(0)

  /// The subscription's handler.
  ///
  /// A's value is -1 and must come first; B's are 0, 1, 2... in order. A's
  /// handler holds A until B has sent once, so that B's values queue behind
  /// A's whatever the threads' timing.
  func hear(_ value: Int) {
    if value < 0 {
      if fromA.add(1, ordering: .relaxed).newValue != 1 || delivered.load(ordering: .relaxed) != 0 {
        misordered.add(1, ordering: .relaxed)
      }
      isADelivering.store(true, ordering: .releasing)
      wait(for: hasBSent, atMost: .seconds(1))
    } else {
      if value != nextFromB.load(ordering: .relaxed) || fromA.load(ordering: .relaxed) != 1 {
        misordered.add(1, ordering: .relaxed)
      }
      nextFromB.store(value + 1, ordering: .relaxed)
    }
    spin(for: handlerWork)
    delivered.add(1, ordering: .releasing)
  }

  /// Thread B: sends until `captiveSending` has passed or `captiveCap`
  /// values are sent, reading the backlog every 1,024 sends.
  func sendAsB(_ sender: EventSender<Int>) {
    wait(for: isADelivering, atMost: .seconds(5))
    let start = clock.now
    var sent = 0
    while sent < captiveCap, sent % 1_024 != 0 || clock.now - start < captiveSending {
      send(sender, sent)
      sent += 1
      if sent == 1 { hasBSent.store(true, ordering: .releasing) }
      if sent % 1_024 == 0 {
        let backlog = sent - delivered.load(ordering: .relaxed)
        if backlog > backlogPeak.load(ordering: .relaxed) {
          backlogPeak.store(backlog, ordering: .relaxed)
        }
      }
    }
    bTook.store(Int64(nanoseconds(clock.now - start)), ordering: .relaxed)
    heapAtBEnd.store(heap_bytes_in_use(), ordering: .relaxed)
    sentByB.store(sent, ordering: .releasing)
  }
}

/// Subscribes where no actor is.
func subscribeWithoutActor(_ sender: EventSender<Int>, _ run: CaptiveRun) -> EventSubscription {
  sender.event.observe { run.hear($0) }
}

func runCaptiveSender() {
  let sender = EventSender<Int>()
  let run = CaptiveRun()
  let subscription = subscribeWithoutActor(sender, run)
  let baseline = heap_bytes_in_use()
  let threadsDone = DispatchGroup()
  threadsDone.enter()
  Thread.detachNewThread {
    let took = time { send(sender, -1) }
    run.aTook.store(Int64(nanoseconds(took)), ordering: .relaxed)
    threadsDone.leave()
  }
  threadsDone.enter()
  Thread.detachNewThread {
    run.sendAsB(sender)
    threadsDone.leave()
  }
  threadsDone.wait()
  // What A's send left to others is delivered elsewhere: waited for, bounded.
  let sent = run.sentByB.load(ordering: .acquiring)
  let end = clock.now + .seconds(50)
  while run.delivered.load(ordering: .acquiring) < sent + 1, clock.now < end {
    Thread.sleep(forTimeInterval: 0.001)
  }
  let delivered = run.delivered.load(ordering: .acquiring)
  let misordered = run.misordered.load(ordering: .relaxed)
  let verdict =
    delivered == sent + 1 && misordered == 0 && run.nextFromB.load(ordering: .relaxed) == sent
    ? "all \(sent + 1) delivered once, in order"
    : "FAILED: \(delivered) of \(sent + 1) delivered, \(misordered) out of order"
  let bTook = Double(run.bTook.load(ordering: .relaxed))
  print(
    "A sends 1 value to a no-actor subscription (handler \(readable(handlerWork))) while B sends"
      + " for \(readable(captiveSending)), at most \(captiveCap) values")
  printTable([
    ["A's one send took", readable(nanoseconds: Double(run.aTook.load(ordering: .relaxed)))],
    ["B sent", "\(sent) values in \(readable(nanoseconds: bTook))"],
    ["B's backlog peak (sent, not yet delivered)", "\(run.backlogPeak.load(ordering: .relaxed))"],
    [
      "heap grown by B's end",
      readable(bytes: run.heapAtBEnd.load(ordering: .relaxed) - baseline),
    ],
    ["values", verdict],
  ])
  withExtendedLifetime(subscription) {}
}
