// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

/// An actor that hears an event on its own isolation.
private actor Follower {
  private var heard = 0

  /// Subscribes for as long as this actor lives.
  func follow(_ event: Event<Int>) {
    event.observe(actor: self) { follower, value in follower.heard += value }
  }

  /// Subscribes, then cancels: returns how long subscribing took, in
  /// nanoseconds.
  func passBy(_ event: Event<Int>) -> UInt64 {
    var subscription: EventSubscription?
    let time = nanoseconds {
      subscription = event.observe(actor: self) { follower, value in follower.heard += value }
    }
    subscription?.cancel()
    return time
  }
}

/// Subscribes where no actor is, so that every event timed here has one
/// subscription that hears its sends at once.
private func observeFromNoActor(_ event: Event<Int>) -> EventSubscription {
  event.observe { _ in }
}

/// How long one send from where no actor is takes, in nanoseconds.
private func timeSend(_ sender: EventSender<Int>) -> UInt64 {
  nanoseconds { sender.send(1) }
}

/// A sender with one live subscription, and `count` actors' subscriptions
/// whose actors then died, all at once and so at distinct addresses.
private func senderAfterDeaths(
  of count: Int
) async -> (sender: EventSender<Int>, live: EventSubscription) {
  let sender = EventSender<Int>()
  let live = observeFromNoActor(sender.event)
  var followers = (0..<count).map { _ in Follower() }
  for follower in followers { await follower.follow(sender.event) }
  followers.removeAll()
  return (sender, live)
}

/// Timed as ratios with a wide margin, the best of a few runs; the goals
/// (5 ms for the next send after 8,000 deaths, 1 µs for a subscribe) are
/// measured in the benchmarks.
@Suite("Actors' destinations that no subscription needs")
struct DeadActorsTests {
  /// Dropped one at a time, each dead actor's destination cost a scan of
  /// those left: quadratic, 64 times the time for 8 times the actors, where
  /// linear is 8 (a little more, as they outgrow the caches).
  @Test(
    "The next send after 250 or 2,000 subscribed actors died takes time at most linear in their number, and later sends cost a few times a fresh event's"
  )
  func deadActorsCostNextSendLinearTime() async {
    var next: [UInt64] = [.max, .max]
    var survivors: [EventSender<Int>] = []
    var kept: [EventSubscription] = []
    for (index, count) in [250, 2_000].enumerated() {
      for _ in 0..<3 {
        let (sender, live) = await senderAfterDeaths(of: count)
        next[index] = min(next[index], timeSend(sender))
        survivors.append(sender)
        kept.append(live)
      }
    }
    #expect(
      Double(next[1]) < Double(next[0]) * 40,
      "next send after 250 and 2,000 deaths: \(next) ns, \(ratios(next)) times")

    let fresh = EventSender<Int>()
    kept.append(observeFromNoActor(fresh.event))
    let later = bestTimes(of: [fresh, survivors.last!].map { sender in { sender.send(1) } })
    #expect(
      later[1] < later[0] * 4,
      "later sends, fresh and after 2,000 deaths: \(later) ns, \(ratios(later)) times")
    withExtendedLifetime(kept) {}
  }

  /// A cancelled subscription that left its actor's destination in the
  /// event made each subscribe scan them, and the next send start a drain
  /// on every one of those actors.
  @Test(
    "After 1,000 or 4,000 living actors subscribed and cancelled, a subscribe and the next send cost at most a few times what they cost on a fresh event"
  )
  func cancelledActorsLeaveNothing() async {
    let newcomers = 10
    var subscribe: [UInt64] = [.max, .max, .max]
    var firstSend: [UInt64] = [.max, .max, .max]
    for (index, count) in [0, 1_000, 4_000].enumerated() {
      for _ in 0..<2 {
        let sender = EventSender<Int>()
        let live = observeFromNoActor(sender.event)
        let passersby = (0..<count).map { _ in Follower() }
        for passerby in passersby { _ = await passerby.passBy(sender.event) }
        // Subscribes by actors that have none yet: the case a scan costs.
        for _ in 0..<newcomers {
          subscribe[index] = min(subscribe[index], await Follower().passBy(sender.event))
        }
        firstSend[index] = min(firstSend[index], timeSend(sender))
        withExtendedLifetime((live, passersby)) {}
      }
    }
    #expect(
      subscribe[1] < subscribe[0] * 4 && subscribe[2] < subscribe[0] * 4,
      "subscribe with 0, 1,000, 4,000 cancelled: \(subscribe) ns, \(ratios(subscribe)) times")
    #expect(
      firstSend[1] < firstSend[0] * 10 && firstSend[2] < firstSend[0] * 10,
      "first send with 0, 1,000, 4,000 cancelled: \(firstSend) ns, \(ratios(firstSend)) times")
  }
}
