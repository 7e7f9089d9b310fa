// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Testing

@testable import Multicast

/// An observer protocol whose observers main-actor broadcasts may reach.
protocol Checking: AnyObject, Sendable {
  func check()
}

/// An observer that knows when its owner let it go, and counts the calls
/// it gets after that.
final class Released: Checking {
  let isReleased = Locked(false)
  let callsAfterRelease: Locked<Int>

  init(callsAfterRelease: Locked<Int>) { self.callsAfterRelease = callsAfterRelease }

  func check() {
    if isReleased.withLock({ $0 }) { callsAfterRelease.withLock { $0 += 1 } }
  }
}

/// An observer that does nothing, to make a registry large.
final class Filler: Checking {
  func check() {}
}

@Suite("Queries and lifetime")
struct QueryLifetimeTests {
  @MainActor
  @Test("A count on another thread keeps no released observer alive for a queued broadcast to call")
  func countHoldsNoObserver() async {
    let callsAfterRelease = Locked(0)
    for _ in 0..<100 {
      let delegate = MulticastDelegate<any Checking>()
      // The observer first, then many, so that a count that has loaded it
      // goes on for a while.
      var victim: Released? = Released(callsAfterRelease: callsAfterRelease)
      delegate.addObserver(victim!)
      let live = (0..<3_000).map { _ in Filler() }
      for filler in live { delegate.addObserver(filler) }
      // A broadcast queued for the main actor, which is busy with this test.
      await Task.detached { delegate.onMainActor { $0.check() } }.value
      let isQuerying = Locked(true)
      let started = BlockingGate()
      let querying = Thread {
        _ = delegate.count
        started.open()
        while isQuerying.withLock({ $0 }) { _ = delegate.count }
      }
      querying.start()
      started.wait()
      // Released while the other thread is most likely inside a query.
      victim!.isReleased.withLock { $0 = true }
      victim = nil
      await waitForDeliveries()
      isQuerying.withLock { $0 = false }
      withExtendedLifetime(live) {}
    }
    #expect(callsAfterRelease.withLock { $0 } == 0)
  }
}
