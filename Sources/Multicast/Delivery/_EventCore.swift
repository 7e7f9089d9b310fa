// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What an ``EventSubscription`` ends: its event's core, through a protocol so
/// that a subscription needs neither a generic parameter nor a closure.
protocol _SubscriptionSource: AnyObject, Sendable {
  /// Ends `registration`, if it has not ended; `isolation` is the caller's.
  ///
  /// - Returns: Whether this call ended it.
  @discardableResult
  func unsubscribe(_ registration: _Registration, from isolation: (any Actor)?) -> Bool
}

/// One subscription's payload: its handler, and the key of the destination
/// it runs on (D6).
struct _Subscriber {
  let isolation: _IsolationKey
  let handler: _Handler

  /// What an ended subscription's entry keeps until the storage compacts.
  static var ended: _Subscriber { _Subscriber(isolation: .noActor, handler: .value { _ in }) }
}

/// The registry behind one event: the storage, the destinations its
/// subscriptions run on, and the owner's first- and last-observer notices
/// (see README.md).
///
/// A registration holds a target, weakly, or else the core itself, the
/// storage's owner: such a subscription ends when its ``EventSubscription``
/// is released or cancelled.
@usableFromInline
final class _EventCore<Value>: _SubscriptionSource, @unchecked Sendable {
  // @unchecked Sendable: the mutable state is reached only in the storage's
  // sections: `_CoreState` is the storage's, `latest` is private to them;
  // handlers and notices run only on their own isolation (D3), notices one
  // at a time (D10).

  typealias Registry = _HandleRegistry<_Subscriber, _CoreState>

  /// The value a send lends its handlers: `pointer` points to a `Value`.
  @inlinable
  static func value(at pointer: UnsafeRawPointer) -> Value {
    pointer.assumingMemoryBound(to: Value.self).pointee
  }

  /// The registrations, and beside them, under the same lock, ``_CoreState``.
  let storage: Registry
  /// The destination of the owner's actor, where the notices run, or `nil`
  /// when the owner runs where no actor is.
  let ownerDestination: _Destination?
  let onFirstObserver: (() -> Void)?
  let onLastObserverGone: (() -> Void)?
  let hasNotices: Bool
  /// Where the second half of each value lies, in bytes, for
  /// ``_Handler/pair(_:)`` handlers: an observable value's new value.
  let pairOffset: Int
  /// Whether each send keeps its value in `latest`, for new subscriptions.
  @usableFromInline let replaysLatest: Bool
  /// What a new subscription hears first, if anything.
  ///
  /// The latest value sent, when the core replays it; an observable value's
  /// current value, as the change `(old: value, new: value)`. Only this
  /// file's sections of the storage's lock reach it, and pass it on.
  /// Unchecked: the lock makes access exclusive (see Performance).
  @exclusivity(unchecked) private var latest: Value?

  /// A derived event's link to the event it derives from (D11).
  let upstream: _UpstreamLink?

  init(
    owner: (any Actor)?, onFirstObserver: (() -> Void)?, onLastObserverGone: (() -> Void)?,
    replaysLatest: Bool = false, pairOffset: Int = 0, latest: Value? = nil,
    upstream: _UpstreamLink? = nil
  ) {
    storage = Registry(guarding: _CoreState())
    self.latest = latest
    self.upstream = upstream
    ownerDestination = owner.map { _Destination.of($0) }
    self.onFirstObserver = onFirstObserver
    self.onLastObserverGone = onLastObserverGone
    hasNotices = onFirstObserver != nil || onLastObserverGone != nil
    self.replaysLatest = replaysLatest
    self.pairOffset = pairOffset
    storage.setOwner(self)
  }

  /// Registers `handler`, to run on `isolation`, for as long as `target`
  /// lives or, without one, as the returned subscription is kept; it hears
  /// first the latest value, read in the same section, if
  /// `startingWithLatest` or the core replays.
  func subscribe(
    _ target: AnyObject?, from isolation: (any Actor)?, handler: _Handler,
    startingWithLatest: Bool = false
  ) -> EventSubscription {
    let registration = register(
      target ?? self, from: isolation, handler: handler, startingWithLatest: startingWithLatest
    ) { _ in }
    return EventSubscription(
      source: self, registration: registration,
      lifetime: target == nil ? .untilReleased : .whileTargetLives)
  }

  /// Registers `handler`, to run on `isolation`, for as long as `object`
  /// lives; it hears first the latest value, if the core replays one.
  @usableFromInline
  func register(
    _ object: AnyObject, from isolation: (any Actor)?, handler: _Handler
  ) -> _Registration {
    register(object, from: isolation, handler: handler, startingWithLatest: false) { _ in }
  }

  /// ``register(_:from:handler:)``, with `registered` run in the section
  /// that makes the registration, before any send can reach it, with the
  /// index of its destination.
  func register(
    _ object: AnyObject, from isolation: (any Actor)?, handler: _Handler,
    registered: (
      _Registration, _ destination: Int, inout _CoreState, _ latest: inout Value?
    ) -> Void
  ) -> _Registration {
    // An actor's destination is looked up outside the section (D12).
    var destination: _Destination? = nil
    while true {
      let registered = storage.mutate {
        state, garbage -> (_Registration, _OccupancyNotices.Outcome)? in
        let identity = isolation.map { ObjectIdentifier($0) }
        // Found by index: taking a destination out would retain it, slowly,
        // since the registry's weak reference gives it a side table.
        var index = state.guarded.destinations.firstIndex { $0.actorIdentity == identity }
        // A dead actor's destination at the caller's identity goes (D7).
        if let found = index, state.guarded.destinations[found].isOrphaned {
          drop(orphaned: state.guarded.destinations[found], &state, &garbage)
          index = nil
        }
        if index == nil {
          if isolation != nil && destination == nil { return nil }
          state.guarded.destinations.append(destination ?? _Destination(actor: nil))
          index = state.guarded.destinations.count - 1
        }
        let here = index.unsafelyUnwrapped
        #if MULTICAST_INTERNAL_CHECKS
        precondition(
          state.guarded.destinations[here].serves(isolation),
          "D7: a subscription is recorded on a destination that does not serve its isolation")
        #endif
        let subscriber = _Subscriber(
          isolation: state.guarded.destinations[here].key, handler: handler)
        let registration = state.append(object, payload: subscriber, &garbage)
        registered(registration, here, &state.guarded, &latest)
        #if MULTICAST_INTERNAL_CHECKS
        checkDestinations(state)
        #endif
        return (registration, state.guarded.notices.record(isOccupied: true))
      }
      if let (registration, outcome) = registered {
        notifyOwner(outcome, from: isolation)
        upstream?.update()  // D11
        return registration
      }
      destination = _Destination.of(isolation)
    }
  }

  /// Runs `body` in a reading section of the storage (one that changes no
  /// registration), with the latest value, which the same lock guards.
  @inline(__always)
  func withLockedState<Result: ~Copyable>(
    _ body: (inout Registry.State, _ latest: inout Value?) -> Result
  ) -> Result {
    storage.withLockedState(changing: false) { state in body(&state, &latest) }
  }

  /// Runs `body` with the lock held on what it guards besides the
  /// registrations, changing none of them.
  @usableFromInline
  func withLatest<Result>(_ body: (inout _CoreState, _ latest: inout Value?) -> Result) -> Result {
    withLockedState { state, latest in body(&state.guarded, &latest) }
  }

  /// Ends the subscriptions of `destination`, whose actor is gone, and drops
  /// it (D7), in a section of the storage, loading no other actor (D12).
  ///
  /// - Complexity: O(n), where n is the number of registrations.
  func drop(
    orphaned destination: _Destination, _ state: inout Registry.State,
    _ garbage: inout Registry.Garbage
  ) {
    let key = destination.key
    state.removeAll(&garbage, replacingPayloadsWith: _Subscriber.ended) { _, subscriber in
      subscriber.isolation == key
    }
    state.guarded.destinations.removeAll { $0 === destination }
  }

  /// Ends `registration`, if it has not ended.
  ///
  /// - Returns: Whether this call ended it.
  @discardableResult
  func unsubscribe(_ registration: _Registration, from isolation: (any Actor)?) -> Bool {
    change(from: isolation) { state, garbage in
      state.removeRegistration(registration, &garbage, replacingPayloadWith: _Subscriber.ended)
    }
  }

  /// Ends every subscription bound to `target`; returns how many there were.
  func unsubscribeAll(boundTo target: AnyObject, from isolation: (any Actor)?) -> Int {
    change(from: isolation) { state, garbage in
      state.removeAll(heldBy: target, &garbage, replacingPayloadsWith: _Subscriber.ended)
    }
  }

  /// Ends every subscription.
  func unsubscribeAll(from isolation: (any Actor)?) {
    change(from: isolation) { state, garbage in _ = state.removeAll(&garbage) }
  }

  var hasObservers: Bool { !storage.isEmpty }

  /// The destinations, for tests.
  var destinationsForTesting: [_Destination] {
    storage.withLockedState(changing: false) { $0.guarded.destinations }
  }
}

/// What an event core's storage guards besides the registrations, kept in
/// the storage's state: reached only in one of its sections. (Not generic,
/// so that the state's layout is known to code not specialized for a value.)
@usableFromInline
struct _CoreState {
  /// One destination per isolation with subscriptions (D6).
  var destinations: [_Destination] = [] {
    didSet {
      soleDestination = destinations.count == 1 ? Unmanaged.passUnretained(destinations[0]) : nil
    }
  }
  /// The destination, when there is exactly one; `destinations` holds it.
  private(set) var soleDestination: Unmanaged<_Destination>? = nil
  /// The owner's notices, recorded and told (D10).
  var notices = _OccupancyNotices()
  /// An observable value's registrar for Observation, made by its first
  /// read of the value.
  @usableFromInline var observation: _ValueObservation? = nil
}
