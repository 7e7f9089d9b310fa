// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Multicast
import Testing

/// Sends `values` values through a replaying sender and a three-level chain
/// over it, while `churners` threads subscribe and cancel at every level.
///
/// - Returns: What went wrong: a subscription that heard values out of
///   order or twice, or a permanent one that missed a value.
private func churnReplayingChain(values: Int, churners: Int, _ watchdog: Watchdog) async
  -> [String]
{
  let sender = EventSender<Int>(replaysLatest: true)
  let mapped = sender.event.map { $0 }
  let filtered = mapped.filter { _ in true }
  let compacted = filtered.compactMap { Optional($0) }
  let levels = [sender.event, mapped, filtered, compacted]
  let permanent = levels.map { _ in Locked<[Int]>([]) }
  let kept = zip(levels, permanent).map { level, heard in
    level.observe { value in heard.withLock { $0.append(value) } }
  }
  let (sent, done, problems) = (Locked(-1), Locked(false), Locked<[String]>([]))
  await withTaskGroup(of: Void.self) { group in
    group.addTask {
      await onNewThread {
        for value in 0..<values {
          sender.send(value)
          sent.withLock { $0 = value }
          watchdog.progress.withLock { $0 += 1 }
        }
        done.withLock { $0 = true }
      }
    }
    for churner in 0..<churners {
      group.addTask {
        await onNewThread {
          var round = churner
          while !done.withLock({ $0 }) {
            let heard = Locked<[Int]>([])
            let subscription = levels[round % levels.count].observe { value in
              heard.withLock { $0.append(value) }
            }
            round += 1
            subscription.cancel()
            let values = heard.withLock { $0 }
            if zip(values, values.dropFirst()).contains(where: { $0 >= $1 }) {
              problems.withLock { $0.append("level \(round % levels.count) heard \(values)") }
            }
          }
        }
      }
    }
  }
  // What senders handed to drain tasks has arrived.
  await waitForDeliveries()
  for (level, heard) in permanent.enumerated() where heard.withLock({ $0 }) != Array(0..<values) {
    let values = heard.withLock { $0 }
    let missing = Set(0..<values.count).symmetricDifference(values).count
    problems.withLock { $0.append("permanent subscriber of level \(level): \(missing) off") }
  }
  withExtendedLifetime(kept) {}
  return problems.withLock { $0 }
}

@Suite("A chain derived from a replaying sender, under churn")
struct ReplayingChainTests {
  /// A chain that never finished would hang the test, so it runs in a child
  /// process that a watchdog ends.
  @Test(
    "Threads subscribe and cancel at every level of map, filter and compactMap over a replaying sender while another sends: it finishes, every permanent subscriber hears every value in order, and none hears one twice or out of order"
  )
  func churnFinishes() async {
    await #expect(processExitsWith: .success) {
      // Above a whole run under a sanitizer: only a chain that never
      // finishes outlasts it.
      let watchdog = Watchdog(seconds: 300, "sending 4 x 1,000 values through a churning chain")
      var problems: [String] = []
      for round in 0..<4 {
        problems += await churnReplayingChain(values: 1_000, churners: 4, watchdog)
          .map { "round \(round): \($0)" }
      }
      watchdog.stop()
      #expect(problems.isEmpty, "\(problems.prefix(8).joined(separator: "\n"))")
    }
  }
}
