// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _EventCore {
  /// Makes the core of an event derived from this one: while it has
  /// subscriptions, it holds one subscription here, made where no actor is,
  /// whose handler passes each value sent here to `forward`, with the
  /// derived core to send what it makes on.
  ///
  /// The derived core's notices make and end that subscription: its first
  /// subscription subscribes here, and its last one gone ends it. It has no
  /// owner's isolation, so they run at once, where the change is made.
  ///
  /// While subscribed, this core's registration holds the derived core,
  /// so that a derived event is kept by its subscriptions, not by the
  /// ``Event`` value that offered it; the derived core holds this one (to
  /// subscribe again), and its subscription here weakly. No cycle is left
  /// once the last subscription ends.
  @usableFromInline
  func derive<Output>(
    _ forward: @escaping @Sendable (UnsafeRawPointer, _EventCore<Output>) -> Void
  ) -> _EventCore<Output> {
    let link = _UpstreamLink()
    let derived = _EventCore<Output>(
      owner: nil, onFirstObserver: { link.connect() }, onLastObserverGone: { link.disconnect() })
    link.subscribe = { [self, unowned(unsafe) derived] in
      // The derived core runs its notices, so it is alive here: a strong
      // reference, which the handler keeps, is taken from the unowned one.
      let derived = derived
      // Registered without a replayed value: a derived event replays none.
      let registration = register(self, from: nil) { _, value in
        forward(value, derived)
      } registered: { _, _ in
      }
      return Subscription(source: self, registration: registration, lifetime: .untilReleased)
    }
    return derived
  }
}

/// A derived event's subscription to the event it derives from: made by
/// its first-observer notice, ended by its last-observer one.
///
/// Not `Sendable`: only the derived core's notices use it, and they run one
/// at a time, each after the last (the core tells its owner from one thread
/// at a time, handing over under its storage's lock).
final class _UpstreamLink {
  /// Subscribes upstream; set once, right after the derived core is made.
  var subscribe: () -> Subscription = { preconditionFailure("an upstream link was not set") }
  /// The subscription upstream, while the derived event has subscriptions.
  private var upstream: Subscription?

  func connect() {
    upstream = subscribe()
  }

  func disconnect() {
    // Releasing the subscription ends it.
    upstream = nil
  }
}
