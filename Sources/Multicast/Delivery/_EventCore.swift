// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What an ``EventSubscription`` ends: its event's core, through a protocol so
/// that a subscription needs neither a generic parameter nor a closure.
protocol _SubscriptionSource: AnyObject, Sendable {
  /// Ends `registration`, if it has not ended; `isolation` is the caller's.
  func unsubscribe(_ registration: _Registration, from isolation: (any Actor)?)
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
  // @unchecked Sendable: the `@exclusivity(unchecked)` state is guarded by
  // the storage's lock; handlers and notices run only on their own
  // isolation (D3), notices one at a time (D10).

  /// The value a send lends its handlers: `pointer` points to a `Value`.
  @inlinable
  static func value(at pointer: UnsafeRawPointer) -> Value {
    pointer.assumingMemoryBound(to: Value.self).pointee
  }

  let storage = _HandleRegistry<_Subscriber>()
  /// The destination of the owner's actor, where the notices run, or `nil`
  /// when the owner runs where no actor is.
  let ownerDestination: _Destination?
  let onFirstObserver: (() -> Void)?
  let onLastObserverGone: (() -> Void)?
  let hasNotices: Bool
  /// Guarded by the storage's lock, which makes access exclusive.
  @exclusivity(unchecked) var notices = _OccupancyNotices()
  /// One destination per isolation with subscriptions; guarded by the
  /// storage's lock (D6).
  @exclusivity(unchecked) var destinations: [_Destination] = [] {
    didSet {
      soleDestination = destinations.count == 1 ? Unmanaged.passUnretained(destinations[0]) : nil
    }
  }
  /// The destination, when there is exactly one; `destinations` holds it.
  @exclusivity(unchecked) var soleDestination: Unmanaged<_Destination>? = nil
  /// Where the second half of each value lies, in bytes, for
  /// ``_Handler/pair(_:)`` handlers: an observable value's new value.
  let pairOffset: Int
  /// Whether each send keeps its value in `latest`, for new subscriptions.
  @usableFromInline let replaysLatest: Bool
  /// Guarded by the storage's lock, in the section that orders the sends.
  @exclusivity(unchecked) var latest: Value? = nil

  /// A derived event's link to the event it derives from (D11).
  let upstream: _UpstreamLink?

  init(
    owner: (any Actor)?, onFirstObserver: (() -> Void)?, onLastObserverGone: (() -> Void)?,
    replaysLatest: Bool = false, pairOffset: Int = 0, upstream: _UpstreamLink? = nil
  ) {
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
  /// lives or, without one, as the returned subscription is kept.
  @usableFromInline
  func subscribe(
    _ target: AnyObject?, from isolation: (any Actor)?, handler: _Handler
  ) -> EventSubscription {
    let registration = register(
      target ?? self, from: isolation, handler: handler, startingWith: nil
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
    register(object, from: isolation, handler: handler, startingWith: nil) { _ in }
  }

  /// ``register(_:from:handler:)``, with `registered` run in the section
  /// that makes the registration, before any send can reach it, with the
  /// index of its destination.
  func register(
    _ object: AnyObject, from isolation: (any Actor)?, handler: _Handler,
    registered: (_Registration, _ destination: Int) -> Void
  ) -> _Registration {
    // An actor's destination is looked up outside the section (D12).
    var destination: _Destination? = nil
    while true {
      let registered = storage.mutate {
        state, garbage -> (_Registration, _OccupancyNotices.Outcome)? in
        let destinationIndex: Int
        let identity = isolation.map { ObjectIdentifier($0) }
        var index = destinations.firstIndex { $0.actorIdentity == identity }
        // A dead actor's destination at the caller's identity goes (D7).
        if let found = index, destinations[found].isOrphaned {
          drop(orphaned: destinations[found], &state, &garbage)
          index = nil
        }
        if let index {
          destinationIndex = index
        } else {
          if isolation != nil && destination == nil { return nil }
          destinations.append(destination ?? _Destination(actor: nil))
          destinationIndex = destinations.count - 1
        }
        #if MULTICAST_INTERNAL_CHECKS
        precondition(
          destinations[destinationIndex].serves(isolation),
          "D7: a subscription is recorded on a destination that does not serve its isolation")
        #endif
        let subscriber = _Subscriber(
          isolation: destinations[destinationIndex].key, handler: handler)
        let registration = state.append(object, payload: subscriber, &garbage)
        registered(registration, destinationIndex)
        #if MULTICAST_INTERNAL_CHECKS
        checkDestinations(state)
        #endif
        return (registration, notices.record(isOccupied: true))
      }
      if let (registration, outcome) = registered {
        notifyOwner(outcome, from: isolation)
        upstream?.update()  // D11
        return registration
      }
      destination = _Destination.of(isolation)
    }
  }

  /// Ends the subscriptions of `destination`, whose actor is gone, and drops
  /// it (D7), in a section of the storage, loading no other actor (D12).
  ///
  /// - Complexity: O(n), where n is the number of registrations.
  func drop(
    orphaned destination: _Destination, _ state: inout _HandleRegistry<_Subscriber>.State,
    _ garbage: inout _HandleRegistry<_Subscriber>.Garbage
  ) {
    let key = destination.key
    state.removeAll(&garbage, replacingPayloadsWith: _Subscriber.ended) { _, subscriber in
      subscriber.isolation == key
    }
    destinations.removeAll { $0 === destination }
  }

  /// Ends `registration`, if it has not ended.
  func unsubscribe(_ registration: _Registration, from isolation: (any Actor)?) {
    change(from: isolation) { state, garbage in
      _ = state.removeRegistration(
        registration, &garbage, replacingPayloadWith: _Subscriber.ended)
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
    storage.withLockedState(changing: false) { _ in destinations }
  }
}
