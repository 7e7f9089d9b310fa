// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

@Suite("A replaying event and a derived event across actors")
@MainActor
struct DerivedAcrossActorsTests {
  @Test(
    "A main-actor view hears the latest status at once; another actor hears the mapped failures"
  )
  func replayAndDerived() async {
    let monitor = ConnectionMonitor()
    await monitor.report("connecting")
    var shown: [String] = []
    let view = monitor.status.observe { shown.append($0) }
    #expect(shown == ["connecting"], "the latest status, before observe returned")
    let log = FailureLog()
    let logged = await log.follow(monitor.failures)
    await monitor.report("failed: timeout")
    await monitor.report("connected")
    await waitForDeliveries()
    #expect(shown == ["connecting", "failed: timeout", "connected"])
    #expect(await log.delivered() == ["FAILED: TIMEOUT"])
    logged.cancel()
    await monitor.report("failed: reset")
    #expect(await log.delivered() == ["FAILED: TIMEOUT"])
    withExtendedLifetime(view) {}
  }
}
