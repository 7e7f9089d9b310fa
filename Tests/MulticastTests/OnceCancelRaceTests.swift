// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Multicast
import Testing

/// A meeting point for two threads.
///
/// They meet here, spinning, so that they leave within nanoseconds of each
/// other: a lock or a condition would wake one of them microseconds late,
/// far wider than the race the tests aim at. A thread that has spun a while
/// yields, so that on a busy machine the other gets to arrive.
private final class SpinRendezvous: Sendable {
  private let arrivals = Locked(0)

  /// Returns once both threads made their `meeting`th call (from 1).
  func meet(_ meeting: Int) {
    arrivals.withLock { $0 += 1 }
    var spins = 0
    while arrivals.withLock({ $0 }) < 2 * meeting {
      spins += 1
      if spins > 100 { Thread.yield() }
    }
  }
}

/// What one round's once-handler saw.
private final class OnceRound: Sendable {
  let ran = Locked(false)
}

/// One round's target, handed to the removing thread.
private struct Racers: Sendable {
  let target: OnceRound
}

/// Spins for about `steps` readings of the clock, to shift one thread
/// against the other by a few nanoseconds at a time.
private func spin(_ steps: Int) {
  for _ in 0..<max(steps, 0) { _ = nanosecondsNow() }
}

@Suite("A once-handler and a removal racing")
struct OnceCancelRaceTests {
  /// `removeObservers` says whether it ended the subscription, which
  /// `cancel()` does not: a handler that runs after a `cancel()` returned
  /// may have begun first, its subscription ended by its own delivery, so
  /// only this form tells a late handler from one under way.
  ///
  /// One thread sends while the other removes. Each round the thread that
  /// won waits longer in the next, by a step that doubles while the same
  /// thread keeps winning and halves when the other wins, so the rounds
  /// find and stay where the two meet. Subscriptions made before the once-subscription put it last both
  /// in the walk and in the removal's scan, which holds the lock meanwhile:
  /// the handler's own unsubscribe then waits for the removal, widening the
  /// race from nanoseconds to the length of the scan.
  @Test(
    "A handler subscribed for one value never runs once another thread's removal has ended its subscription",
    .timeLimit(.minutes(15)))
  func noHandlerAfterRemoval() async {
    let rounds = 3_000
    let sender = EventSender<Int>()
    let earlier = (0..<500).map { _ in sender.event.observe { _ in } }
    let rendezvous = SpinRendezvous()
    let current = Locked<Racers?>(nil)
    // Positive: the sender waits that many steps; negative: the remover.
    let offset = Locked(0)

    async let remover: [Bool] = onNewThread {
      var removed: [Bool] = []
      for number in 0..<rounds {
        rendezvous.meet(2 * number + 1)
        let racers = current.withLock { $0! }
        spin(-offset.withLock { $0 })
        removed.append(sender.event.removeObservers(racers.target) == 1)
        rendezvous.meet(2 * number + 2)
      }
      return removed
    }
    let ran = await onNewThread {
      var ran: [Bool] = []
      var step = 1
      for number in 0..<rounds {
        let target = OnceRound()
        sender.event.observeOnce(target) { target, _ in target.ran.withLock { $0 = true } }
        current.withLock { $0 = Racers(target: target) }
        rendezvous.meet(2 * number + 1)
        spin(offset.withLock { $0 })
        sender.send(number)
        rendezvous.meet(2 * number + 2)
        ran.append(target.ran.withLock { $0 })
        let sameWinner = ran.count >= 2 && ran[ran.count - 2] == ran.last!
        step = sameWinner ? min(step * 2, 4_096) : max(step / 2, 1)
        offset.withLock { $0 += ran.last! ? step : -step }
      }
      return ran
    }
    let removed = await remover
    let late = zip(ran, removed).count { $0 && $1 }
    let (ranCount, removedCount) = (ran.count { $0 }, removed.count { $0 })
    #expect(
      late == 0,
      "\(late) of \(rounds) handlers ran after removeObservers had ended their subscription (\(ranCount) ran, \(removedCount) removed)"
    )
    withExtendedLifetime(earlier) {}
    // Both sides won often: the rounds raced.
    #expect(ranCount > rounds / 10 && removedCount > rounds / 10)
  }
}
