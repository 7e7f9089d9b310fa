// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _EventCore {
  /// Makes the core of an event derived from this one: while it has
  /// subscriptions, it holds one here, made where no actor is, whose
  /// handler passes each value to `forward` with the derived core.
  ///
  /// Its registrations connect it before they return, its last-observer
  /// notice disconnects it (D11); it replays when this core does. Who holds
  /// whom is in README.md, section 4, "How do derived events connect":
  /// never both ways.
  @usableFromInline
  func derive<Output>(
    _ forward: @escaping @Sendable (UnsafeRawPointer, _EventCore<Output>) -> Void
  ) -> _EventCore<Output> {
    let link = _UpstreamLink(source: self)
    let derived = _EventCore<Output>(
      owner: nil, onFirstObserver: nil, onLastObserverGone: { link.update() },
      replaysLatest: replaysLatest, upstream: link)
    link.isObserved = { [unowned derived] in derived.hasRegistrations }
    link.forgetLatest = { [unowned derived] in derived.forgetLatest() }
    link.subscribe = { [unowned(unsafe) derived] source, garbage in
      // Only this core is ever the link's source.
      let source = unsafeDowncast(source, to: _EventCore<Value>.self)
      // Alive here, since it connects from its own registrations: the
      // handler keeps a strong reference.
      let derived = derived
      let (registration, followup) = source.register(
        source, from: nil, handler: .value { value in forward(value, derived) },
        startingWithLatest: false, into: &garbage
      ) { _ in }
      return (registration, { source.follow(followup, from: nil) })
    }
    link.unsubscribe = { source, registration, garbage in
      let source = unsafeDowncast(source, to: _EventCore<Value>.self)
      let (_, followup) = source.change(from: nil, into: &garbage) { state, garbage in
        state.removeRegistration(registration, &garbage, replacingPayloadWith: _Subscriber.ended)
      }
      return { source.follow(followup, from: nil) }
    }
    return derived
  }

  /// Whether any registration is not removed, loading none of their
  /// targets: a derived event connects upstream while so.
  var hasRegistrations: Bool {
    withLatest { state, _ in state.isUsed }
  }

  /// Forgets a derived core's latest value: the value sent upstream made
  /// nothing to send here (a filter said no).
  ///
  /// - Returns: The value forgotten, to release once no lock is held.
  @usableFromInline @discardableResult
  func forgetLatest() -> Any? {
    guard replaysLatest else { return nil }
    return withLatest { _, latest in latest.take() }
  }
}

/// A derived event's subscription to the event it derives from, which it
/// holds strongly only while not subscribed to it (D11).
///
/// Each update decides under the link's lock and subscribes or ends the
/// subscription there, in sections of the upstream storage alone; what
/// that leaves (a replayed value, notices, what was dropped) runs after
/// unlocking: no user code runs under the lock (D12).
final class _UpstreamLink: @unchecked Sendable {
  // @unchecked Sendable: `held`, `source` and `registration` are guarded by
  // `lock`; the closures are set once, before the link is shared.

  /// Subscribes to the upstream core it is given, returning what is left
  /// to do once no lock is held.
  var subscribe: (AnyObject, inout _SubscriberGarbage) -> (_Registration, () -> Void) = { _, _ in
    preconditionFailure("an upstream link was not set")
  }
  /// Ends a subscription to the upstream core, returning what is left.
  var unsubscribe: (AnyObject, _Registration, inout _SubscriberGarbage) -> () -> Void = {
    _, _, _ in preconditionFailure("an upstream link was not set")
  }
  /// Whether the derived event has registrations.
  var isObserved: () -> Bool = { true }
  /// Drops the derived event's latest value, if it keeps one, returning it.
  var forgetLatest: () -> Any? = { nil }
  private let lock = _Lock(
    initializing: .allocate(byteCount: _Lock.byteCount, alignment: _Lock.alignment))
  /// The upstream core, held while not subscribed to it.
  private var held: AnyObject?
  /// The upstream core, while anything holds it.
  private weak var source: AnyObject?
  /// The subscription upstream, while the derived event has registrations.
  private var registration: _Registration?

  init(source: AnyObject) {
    held = source
    self.source = source
  }

  deinit {
    lock.destroy()
    lock.memory.deallocate()
  }

  /// The upstream core, while anything holds it.
  var upstreamCore: AnyObject? {
    lock.lock()
    defer { lock.unlock() }
    return held ?? source
  }

  /// Subscribes upstream while the derived event has registrations, and
  /// ends that subscription when it has none (D11).
  func update() {
    var garbage = _SubscriberGarbage()
    var followup: (() -> Void)? = nil
    var forgotten: Any? = nil
    lock.lock()
    let observed = isObserved()
    if observed {
      // With no one left to send upstream, there is nothing to subscribe to.
      if registration == nil, let source = held ?? source {
        let made = subscribe(source, &garbage)
        (registration, followup) = (made.0, made.1)
        held = nil
      }
    } else if let ended = registration.take(), let source {
      // Held first, to subscribe again; ended under the lock, so that no
      // value reaches the derived event twice.
      held = source
      followup = unsubscribe(source, ended, &garbage)
      forgotten = forgetLatest()
    }
    _check(
      observed ? registration != nil || (held == nil && source == nil) : registration == nil,
      "D11: a derived event's connection upstream does not follow its subscriptions")
    _check(registration == nil || held == nil, "D11: a link holds the core it is subscribed to")
    lock.unlock()
    _ = consume garbage
    withExtendedLifetime(forgotten) {}
    followup?()
  }
}
