// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

// An event that replays its latest value, and events derived from it, as a
// main-actor app target writes them.

final class Connection {
  private let status = EventSender<String>(replaysLatest: true)

  /// Every status, the latest first for a new subscription.
  var statuses: Event<String> { status.event }

  /// The reasons of the failures.
  var failures: Event<String> {
    status.event.filter { $0.hasPrefix("failed: ") }.map { String($0.dropFirst(8)) }
  }

  func report(_ text: String) { status.send(text) }
}

final class StatusLabel {
  private(set) var text = ""
  private(set) var failures: [String] = []
  private var subscriptions: Set<EventSubscription> = []

  init(connection: Connection) {
    connection.statuses.observe(self) { label, status in label.text = status }
    connection.failures.observe { [weak self] reason in self?.failures.append(reason) }
      .store(in: &subscriptions)
  }
}
