// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

private protocol Waving: AnyObject {
  func wave()
}

private final class Waver: Waving {
  var waves = 0
  func wave() { waves += 1 }
}

/// A multicast delegate with `live` and then `dead` observers that died
/// without being removed, after one broadcast met them.
private func delegate(_ live: Waver, dead: Int) -> MulticastDelegate<any Waving> {
  let delegate = MulticastDelegate<any Waving>()
  delegate.addObserver(live)
  for observer in (0..<dead).map({ _ in Waver() }) { delegate.addObserver(observer) }
  delegate { $0.wave() }
  return delegate
}

/// A sender with a subscription bound to `live`, then `dead` bound to
/// targets that died without being removed, after one send met them.
private func sender(_ live: Waver, dead: Int) -> EventSender<Int> {
  let sender = EventSender<Int>()
  sender.event.observe(live) { target, value in target.waves += value }
  for target in (0..<dead).map({ _ in Waver() }) {
    sender.event.observe(target) { target, value in target.waves += value }
  }
  sender.send(1)
  return sender
}

/// What observers that died unremoved cost later broadcasts.
///
/// Timed side by side, as ratios with a wide margin: the library's own goal
/// (at most 2 times) is measured in the benchmarks. Left unswept, each dead
/// observer would cost every broadcast a visit, for ever.
@Suite("Observers that died without being removed")
struct DeadObserversTests {
  @Test(
    "After one broadcast met them, 2,000 or 8,000 dead observers make a broadcast to one live observer at most a few times slower than with it alone"
  )
  func deadObserversCostBroadcastsNothing() {
    let live = Waver()
    let delegates = [0, 2_000, 8_000].map { delegate(live, dead: $0) }
    let times = bestTimes(of: delegates.map { delegate in { delegate { $0.wave() } } })
    let slower = ratios(times)
    #expect(slower[1] < 8 && slower[2] < 8, "times slower than alone: \(slower) (ns: \(times))")
    #expect(Double(times[2]) < Double(times[1]) * 3, "8,000 dead against 2,000: \(times)")
  }

  @Test(
    "After one send met them, 2,000 or 8,000 subscriptions whose targets died make a send to one live target at most a few times slower than with it alone"
  )
  func deadTargetsCostSendsNothing() {
    let live = Waver()
    let senders = [0, 2_000, 8_000].map { sender(live, dead: $0) }
    let times = bestTimes(of: senders.map { sender in { sender.send(1) } })
    let slower = ratios(times)
    #expect(slower[1] < 8 && slower[2] < 8, "times slower than alone: \(slower) (ns: \(times))")
    #expect(Double(times[2]) < Double(times[1]) * 3, "8,000 dead against 2,000: \(times)")
  }
}
