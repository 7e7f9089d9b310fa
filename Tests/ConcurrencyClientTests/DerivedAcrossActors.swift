// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

// A monitor on an actor of its own tells its status as an event that
// replays its latest value, and its failures as an event derived from it;
// a main-actor view and another actor hear them.

actor ConnectionMonitor {
  private let statusSender = EventSender<String>(replaysLatest: true)

  /// Every status; a new subscription hears the latest first.
  nonisolated var status: Event<String> { statusSender.event }
  /// The statuses that tell of a failure.
  nonisolated var failures: Event<String> {
    statusSender.event.filter { $0.hasPrefix("failed: ") }
  }

  func report(_ status: String) {
    statusSender.send(status)
  }
}

actor FailureLog {
  private var entries: [String] = []

  /// Logs each failure, in capitals, on this actor.
  func follow(_ failures: Event<String>) -> EventSubscription {
    failures.map { $0.uppercased() }.observe(actor: self) { log, failure in
      log.entries.append(failure)
    }
  }

  /// The entries, once what waits for this actor is delivered.
  func delivered() async -> [String] {
    await waitForDeliveries()
    return entries
  }
}
