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
  /// Who holds whom (see ``_UpstreamLink``): while subscribed, this core's
  /// registration holds the derived core, so that a derived event is kept
  /// by its subscriptions, not by the ``Event`` value that offered it, and
  /// the derived core holds this one weakly; while not subscribed, the
  /// derived core holds this one, to subscribe again. So no two cores ever
  /// hold each other: a sender released while a dead target still counts
  /// as the derived event's subscription (until a send would notice it)
  /// takes both cores with it.
  @usableFromInline
  func derive<Output>(
    _ forward: @escaping @Sendable (UnsafeRawPointer, _EventCore<Output>) -> Void
  ) -> _EventCore<Output> {
    let link = _UpstreamLink(source: self)
    let derived = _EventCore<Output>(
      owner: nil, onFirstObserver: { link.connect() }, onLastObserverGone: { link.disconnect() })
    link.subscribe = { [unowned(unsafe) derived] source in
      // Only this core is ever the link's source.
      let source = unsafeDowncast(source, to: _EventCore<Value>.self)
      // The derived core runs its notices, so it is alive here: a strong
      // reference, which the handler keeps, is taken from the unowned one.
      let derived = derived
      // Registered without a replayed value: a derived event replays none.
      let registration = source.register(
        source, from: nil, handler: .value { value in forward(value, derived) }
      ) { _, _ in }
      return EventSubscription(source: source, registration: registration, lifetime: .untilReleased)
    }
    return derived
  }
}

/// A derived event's subscription to the event it derives from: made by
/// its first-observer notice, ended by its last-observer one.
///
/// It holds the upstream core strongly only while it is not subscribed to
/// it; while subscribed, the upstream core holds the derived one (through
/// the registration's handler), and whoever sends to the upstream core
/// keeps it.
///
/// Not `Sendable`: only the derived core's notices use it, and they run one
/// at a time, each after the last (the core tells its owner from one thread
/// at a time, handing over under its storage's lock).
final class _UpstreamLink {
  /// Subscribes to the upstream core it is given; set once, right after the
  /// derived core is made.
  var subscribe: (AnyObject) -> EventSubscription = { _ in
    preconditionFailure("an upstream link was not set")
  }
  /// The upstream core, held while not subscribed to it.
  private var held: AnyObject?
  /// The upstream core, while anything holds it.
  private weak var source: AnyObject?
  /// The subscription upstream, while the derived event has subscriptions.
  private var upstream: EventSubscription?

  init(source: AnyObject) {
    held = source
    self.source = source
  }

  func connect() {
    // With no one left to send upstream, there is nothing to subscribe to.
    guard let source = held ?? source else { return }
    upstream = subscribe(source)
    held = nil
  }

  func disconnect() {
    // Held again first, so that ending the subscription, which may end the
    // upstream core's own subscriptions, leaves it alive to subscribe again.
    held = source
    upstream = nil
  }
}
