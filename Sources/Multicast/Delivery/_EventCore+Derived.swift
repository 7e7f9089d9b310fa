// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

extension _EventCore {
  /// Makes the core of an event derived from this one: while it has
  /// subscriptions, it holds one subscription here, made where no actor is,
  /// whose handler passes each value sent here to `forward`, with the
  /// derived core to send what it makes on.
  ///
  /// Every registration on the derived core connects it, before it returns
  /// (see ``_UpstreamLink/connect()``); its last subscription gone
  /// disconnects it, through the owner's notice. A derived core replays
  /// when this one does: what `forward` made of the latest value.
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
      owner: nil, onFirstObserver: nil, onLastObserverGone: { link.disconnect() },
      replaysLatest: replaysLatest, upstream: link)
    link.isObserved = { [unowned(unsafe) derived] in derived.hasObservers }
    link.subscribe = { [unowned(unsafe) derived] source in
      // Only this core is ever the link's source.
      let source = unsafeDowncast(source, to: _EventCore<Value>.self)
      // The derived core connects from its registrations, so it is alive
      // here: a strong reference, which the handler keeps, is taken from
      // the unowned one.
      let derived = derived
      // Registered with the latest value, if the source replays one.
      let registration = source.register(
        source, from: nil, handler: .value { value in forward(value, derived) },
        startingWith: nil
      ) { _ in }
      return EventSubscription(source: source, registration: registration, lifetime: .untilReleased)
    }
    return derived
  }

  /// Forgets the latest value of a derived core that replays: the value
  /// sent upstream made nothing to send here (a filter said no).
  @usableFromInline
  func forgetLatest() {
    guard replaysLatest else { return }
    let forgotten = withLock { latest.take() }
    withExtendedLifetime(forgotten) {}
  }
}

/// A derived event's subscription to the event it derives from: made by
/// its registrations, ended by its last-observer notice.
///
/// It holds the upstream core strongly only while it is not subscribed to
/// it; while subscribed, the upstream core holds the derived one (through
/// the registration's handler), and whoever sends to the upstream core
/// keeps it.
///
/// Connecting and disconnecting take the link's lock, so that a
/// subscription to the derived event, once made, is connected: a
/// disconnect that the last subscription's notice asked for, and that runs
/// after a new subscription was made, finds it and changes nothing.
final class _UpstreamLink: @unchecked Sendable {
  // @unchecked Sendable: `held`, `source` and `upstream` are read and
  // written only with `lock` held, and `connecting` only atomically;
  // `subscribe` and `isObserved` are set once, before the link is shared.
  // The derived-event tests subscribe and cancel from many threads.

  /// Subscribes to the upstream core it is given.
  var subscribe: (AnyObject) -> EventSubscription = { _ in
    preconditionFailure("an upstream link was not set")
  }
  /// Whether the derived event has live subscriptions.
  var isObserved: () -> Bool = { true }
  private let lock = _Lock(
    initializing: .allocate(byteCount: _Lock.byteCount, alignment: _Lock.alignment))
  /// The number, plus one, of the thread subscribing upstream, or 0.
  private let connecting = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
  /// The upstream core, held while not subscribed to it.
  private var held: AnyObject?
  /// The upstream core, while anything holds it.
  private weak var source: AnyObject?
  /// The subscription upstream, while the derived event has subscriptions.
  private var upstream: EventSubscription?

  init(source: AnyObject) {
    held = source
    self.source = source
    connecting.initialize(to: 0)
  }

  deinit {
    lock.destroy()
    connecting.deallocate()
  }

  /// Subscribes upstream, unless subscribed: every registration of the
  /// derived event calls it before it returns.
  func connect() {
    let thread = UInt64(_multicast_thread_number()) + 1
    // A notice that subscribing upstream runs may subscribe to the derived
    // event again, on this thread: the call in progress connects it.
    if _multicast_load_relaxed(connecting) == thread { return }
    lock.lock()
    defer { lock.unlock() }
    // With no one left to send upstream, there is nothing to subscribe to.
    guard upstream == nil, let source = held ?? source else { return }
    _multicast_store_relaxed(connecting, thread)
    upstream = subscribe(source)
    _multicast_store_relaxed(connecting, 0)
    held = nil
  }

  /// Ends the subscription upstream, unless the derived event has a live
  /// subscription again.
  func disconnect() {
    lock.lock()
    guard !isObserved(), let ended = upstream.take() else {
      lock.unlock()
      return
    }
    // Held again first, so that ending the subscription, which may end the
    // upstream core's own subscriptions, leaves it alive to subscribe again.
    held = source
    lock.unlock()
    // Ended after unlocking: the upstream owner's notice may run.
    ended.cancel(isolation: nil)
  }
}
