// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What a derived event's subscription upstream forwards through: a value reaches the
/// derived event only while that is its current connection (D11).
@usableFromInline
struct _Connection<Value> {
  @usableFromInline let core: _EventCore<Value>
  @usableFromInline let number: UInt64

  /// Sends `value` on the derived event, where no actor is.
  @inlinable
  func send(_ value: Value) {
    withUnsafePointer(to: value) { core.send(at: UnsafeRawPointer($0), through: number) }
  }

  /// Forgets the derived event's latest value: the value sent upstream made none here.
  @inlinable
  func forgetLatest() {
    core.forgetLatest(through: number)
  }
}

extension _EventCore {
  /// Makes the core of an event derived from this one, which, while it has subscriptions,
  /// holds one here, made where no actor is, passing each value to `forward` with its
  /// connection, and replays when this core does (README.md, section 4; D11).
  @usableFromInline
  func derive<Output>(
    _ forward: @escaping @Sendable (UnsafeRawPointer, _Connection<Output>) -> Void
  ) -> _EventCore<Output> {
    derive(forward) { link in
      _EventCore<Output>(
        owner: nil, onFirstObserver: nil, onLastObserverGone: { link.update() },
        replaysLatest: replaysLatest, upstream: link)
    }
  }

  /// ``derive(_:)``, with the derived core that `make` makes from its link.
  func derive<Output>(
    _ forward: @escaping @Sendable (UnsafeRawPointer, _Connection<Output>) -> Void,
    making make: (_UpstreamLink) -> _EventCore<Output>
  ) -> _EventCore<Output> {
    let link = _UpstreamLink(source: self)
    let derived = make(link)
    link.connection = { [unowned derived] _ in derived.connectionIfObserved() }
    link.subscribe = { [unowned(unsafe) derived] source, number, garbage in
      // Only this core is ever the link's source.
      let source = unsafeDowncast(source, to: _EventCore<Value>.self)
      // Alive here, since it connects from its own registrations: the
      // handler keeps a strong reference.
      let connection = _Connection(core: derived, number: number)
      let (registration, followup) = source.register(
        source, from: nil, handler: .value { value in forward(value, connection) },
        startingWithLatest: false, into: &garbage
      ) { _ in }
      return (registration, { source.follow(followup, from: nil) })
    }
    link.connectFurther = { source in
      unsafeDowncast(source, to: _EventCore<Value>.self).upstream?.update()
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

  /// In one section: the number of a derived core's connection if a registration is not
  /// removed (loading no target); else `nil`, the connection numbered anew and the latest
  /// value forgotten, to release once no lock is held (D11).
  func connectionIfObserved() -> (number: UInt64?, forgotten: Any?) {
    withLatest { state, latest in
      if state.isUsed { return (state.connection, nil) }
      state.connection &+= 1
      return (nil, latest.take())
    }
  }

  /// Forgets a derived core's latest value, if `connection` is current.
  @usableFromInline
  func forgetLatest(through connection: UInt64) {
    guard replaysLatest else { return }
    let forgotten = withLatest { state, latest in
      state.connection == connection ? latest.take() : nil
    }
    withExtendedLifetime(forgotten) {}
  }
}

/// A derived event's subscription to the event it derives from, which it holds strongly
/// only while not subscribed (README.md, section 4; D11, D12).
final class _UpstreamLink: @unchecked Sendable {
  // @unchecked Sendable: the closures are set before the link is shared; the rest is reached
  // only with its lock held.

  /// Subscribes to the upstream core given, returning what is left once no lock is held.
  var subscribe: (AnyObject, UInt64, inout _CoreState.Garbage) -> (_Registration, () -> Void) = {
    _, _, _ in preconditionFailure("an upstream link was not set")
  }
  /// Ends a subscription to the upstream core, returning what is left.
  var unsubscribe: (AnyObject, _Registration, inout _CoreState.Garbage) -> () -> Void = {
    _, _, _ in preconditionFailure("an upstream link was not set")
  }
  /// Has the upstream core, if derived, connect in turn: whoever subscribed may not have.
  var connectFurther: (AnyObject) -> Void = { _ in }
  /// The derived event's connection number, if it has registrations or (a derived value)
  /// the argument says one is being made; else `nil`, its connection ended
  /// (``_EventCore/connectionIfObserved()``).
  var connection: (_ isHeld: Bool) -> (number: UInt64?, forgotten: Any?) = { _ in (0, nil) }
  private struct State {
    /// The upstream core, held while not subscribed to it.
    var held: AnyObject?
    /// The upstream core, while anything holds it.
    weak var source: AnyObject?
    /// The subscription upstream, while the derived event has registrations.
    var registration: _Registration?
    /// How many subscriptions being made hold the connection (``holding(_:)``).
    var holds = 0
  }

  private let state: _Locked<State>

  init(source: AnyObject) {
    state = _Locked(State(held: source, source: source))
  }

  var upstreamCore: AnyObject? {
    state.withLock { $0.held ?? $0.source }
  }

  /// Subscribes upstream while the derived event has registrations, else ends it (D11).
  func update() {
    var garbage = _CoreState.Garbage()
    var followup: (() -> Void)? = nil
    var connected: AnyObject? = nil
    let forgotten = state.withLock { state in
      // Decided in the derived core's section first: a value the ending
      // subscription still forwards is dropped from there on.
      let (connection, forgotten) = connection(state.holds > 0)
      if let connection {
        // With no one left to send upstream, there is nothing to subscribe to.
        if state.registration == nil, let source = state.held ?? state.source {
          let made = subscribe(source, connection, &garbage)
          (state.registration, followup) = (made.0, made.1)
          state.held = nil
        } else if state.registration != nil {
          // Another thread may have subscribed, and not yet connected what it subscribed to.
          connected = state.source
        }
      } else if let ended = state.registration.take(), let source = state.source {
        // Held first, to subscribe again.
        state.held = source
        followup = unsubscribe(source, ended, &garbage)
      }
      _check(
        connection != nil
          ? state.registration != nil || (state.held == nil && state.source == nil)
          : state.registration == nil,
        "D11: a derived event's connection upstream does not follow its subscriptions")
      _check(
        state.registration == nil || state.held == nil,
        "D11: a link holds the core it is subscribed to")
      return forgotten
    }
    _ = consume garbage
    withExtendedLifetime(forgotten) {}
    followup?()
    if let connected { connectFurther(connected) }
  }

  /// Runs `body`, which subscribes to a derived value from its current value, with the
  /// connection held, so that the value is known when the subscription's section reads it.
  func holding<Result>(_ body: () -> Result) -> Result {
    state.withLock { $0.holds += 1 }
    update()
    let result = body()
    state.withLock { $0.holds -= 1 }
    // Ends the connection if `body` made no subscription that lasts.
    update()
    return result
  }
}
