// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import CHeapStatistics
import Multicast
import Synchronization

// Actors that subscribe to an event, then die or cancel: what their
// destinations cost the next sends, a subscribe, and memory.

/// An actor that follows an event with the actor form.
actor Follower {
  private var heard = 0

  func follow(_ event: Event<Int>) {
    event.observe(actor: self) { follower, value in follower.heard &+= value }
  }

  /// Subscribes and cancels; how long the subscribe took.
  func followAndCancel(_ event: Event<Int>) -> Duration {
    let start = clock.now
    let subscription = event.observe(actor: self) { follower, value in follower.heard &+= value }
    let took = clock.now - start
    subscription.cancel()
    return took
  }
}

/// A count that any thread may tick.
final class Tally: Sendable {
  let count = Atomic<Int>(0)

  func tick() { count.add(1, ordering: .relaxed) }
}

/// A sender with one live subscription made where no actor is, as an app's
/// own listener.
func senderWithListener(_ tally: Tally) -> (EventSender<Int>, EventSubscription) {
  let sender = EventSender<Int>()
  return (sender, sender.event.observe { _ in tally.tick() })
}

struct WeakFollower {
  weak var follower: Follower?
}

/// Waits, for at most 5 s, until none of `followers` lives; how many still do.
func aliveAfterRelease(_ followers: [WeakFollower]) async -> Int {
  let end = clock.now + .seconds(5)
  while clock.now < end {
    if !followers.contains(where: { $0.follower != nil }) { return 0 }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return followers.count { $0.follower != nil }
}

func runDeadActors() async {
  let tally = Tally()
  var rows = [
    ["actors that subscribed, then died", "next send", "later sends", "fresh event's", "ratio"]
  ]
  for actors in [2_000, 4_000, 8_000] {
    let (sender, listening) = senderWithListener(tally)
    var followers = (0..<actors).map { _ in Follower() }
    for follower in followers { await follower.follow(sender.event) }
    // All alive until here, so that each died at an address of its own.
    let watched = followers.map(WeakFollower.init)
    followers = []
    let alive = await aliveAfterRelease(watched)
    let next = time { send(sender, 0) }
    let later = nanosecondsPerCall { send(sender, $0) }
    let (fresh, freshListening) = senderWithListener(tally)
    let freshTakes = nanosecondsPerCall { send(fresh, $0) }
    rows.append([
      "D = \(actors)" + (alive == 0 ? "" : " (\(alive) still alive)"), readable(next),
      readable(nanoseconds: later), readable(nanoseconds: freshTakes),
      String(format: "%.2f×", later / freshTakes),
    ])
    withExtendedLifetime((listening, freshListening)) {}
  }
  print("A send after D actors subscribed (actor form) and died; each event has one live listener")
  printTable(rows)
}

func runIdleDestinations() async {
  let actors = 20_000
  let batch = 1_000
  let sender = EventSender<Int>()
  let followers = (0..<actors).map { _ in Follower() }
  let baseline = heap_bytes_in_use()
  var subscribes: [Duration] = []
  subscribes.reserveCapacity(actors)
  for follower in followers { subscribes.append(await follower.followAndCancel(sender.event)) }
  let afterCancels = heap_bytes_in_use()
  let first = time { send(sender, 0) }
  let settling = clock.now
  await waitForDeliveries()
  let settled = clock.now - settling
  let afterFirstSend = heap_bytes_in_use()
  let later = nanosecondsPerCall { send(sender, $0) }
  func mean(_ durations: ArraySlice<Duration>) -> String {
    readable(nanoseconds: durations.map(nanoseconds).reduce(0, +) / Double(durations.count))
  }
  print("\(actors) actors each subscribe (actor form) and cancel, and stay alive")
  printTable([
    ["a subscribe, mean of the first \(batch)", mean(subscribes.prefix(batch))],
    ["a subscribe, mean of the last \(batch)", mean(subscribes.suffix(batch))],
    ["the first send after", readable(first)],
    ["waitForDeliveries() after it", readable(settled)],
    ["later sends", readable(nanoseconds: later)],
    ["heap held once every subscription ended", readable(bytes: afterCancels - baseline)],
    ["heap held after the first send delivered", readable(bytes: afterFirstSend - baseline)],
  ])
  withExtendedLifetime(followers) {}
}
