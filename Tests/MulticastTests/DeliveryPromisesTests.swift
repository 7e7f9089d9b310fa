// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

@Suite("Cross-actor promises when threads race")
struct DeliveryPromisesTests {
  @Test(
    "A change made on the owner's actor while earlier notices wait for it tells them, then its own, before it returns"
  )
  @MainActor
  func noticesInOrderAtOnce() {
    let log = MainLog()
    let sender = EventSender<Int>(
      onFirstObserver: { log.entries.append("first") },
      onLastObserverGone: { log.entries.append("last") })
    let event = sender.event
    // The main actor is held by this join, so the notices of a thread's
    // subscribing and cancelling wait in its queue.
    runOnThreadAndWait {
      let subscription = event.observe { _ in }
      subscription.cancel()
    }
    #expect(log.entries.isEmpty)
    let subscription = event.observe { _ in }
    #expect(log.entries == ["first", "last", "first"])
    withExtendedLifetime(subscription) {}
  }
}
