// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What a ``EventSubscription`` ends: its event's core, seen through a protocol so
/// that a subscription needs neither a generic parameter nor a closure.
protocol _SubscriptionSource: AnyObject, Sendable {
  /// Ends `registration`, if it has not ended; `isolation` is where the
  /// caller runs, if the compiler knows.
  func unsubscribe(_ registration: _Registration, from isolation: (any Actor)?)
}

/// One subscription's payload: its handler, and the isolation it was made
/// from, where the handler runs.
struct _Subscriber {
  /// The isolation the subscription was made on: the key of its
  /// destination.
  let isolation: _IsolationKey
  let handler: _Handler

  /// What an ended subscription's entry keeps until the storage compacts,
  /// once its handler and captures are released.
  static var ended: _Subscriber { _Subscriber(isolation: .noActor, handler: .value { _ in }) }
}

/// The registry behind one event: the shared storage, the destinations its
/// subscriptions run on (its destinations), and the owner's first- and
/// last-observer notices.
///
/// Each registration holds an object and lasts while it lives: the target of
/// a subscription bound to one, held weakly; otherwise the core itself, the
/// storage's owner, with no weak reference, and the subscription ends when
/// its ``EventSubscription`` is released or cancelled.
///
/// # Lanes
///
/// Each subscription records the isolation it was made from, and its handler
/// runs there. The event keeps one destination per isolation with subscriptions:
/// the ``_Destination`` of that actor, which every subject delivering there
/// shares, or a destination of its own for subscriptions made where no actor
/// is. A send delivers at once the destinations where it runs and queues itself on
/// the others (see `_EventCore+Sending` and `_EventCore+Delivering`). A
/// destination whose delivery finds no live subscription of its isolation is
/// dropped.
@usableFromInline
final class _EventCore<Value>: _SubscriptionSource, @unchecked Sendable {
  // @unchecked Sendable: `destinations` and `notices` are read and written only with
  // the storage's lock held; the storage and the destinations are
  // thread-safe. The handlers and the owner's notices are not `Sendable`, and
  // they are called only where they belong: a handler on the isolation its
  // subscription was made from (by one thread at a time, for subscriptions
  // made where no actor is), a notice on the owner's isolation. The delivery
  // tests exercise this from many tasks and threads under ThreadSanitizer.

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
  /// Whether the owner asked for either notice.
  let hasNotices: Bool
  /// The transitions between no live subscription and some, and which of
  /// them the owner has been told of; read and written only with the
  /// storage's lock held, in the critical section of the change that causes
  /// them. (The lock makes access exclusive: no run-time check is needed,
  /// here and for `destinations`.)
  @exclusivity(unchecked) var notices = _OccupancyNotices()
  /// One destination per isolation with subscriptions; read and written only with
  /// the storage's lock held, so that a send sees the destination of every
  /// registration it reaches.
  @exclusivity(unchecked) var destinations: [_Destination] = [] {
    didSet {
      soleDestination = destinations.count == 1 ? Unmanaged.passUnretained(destinations[0]) : nil
    }
  }
  /// The destination, when there is exactly one.
  ///
  /// It holds no reference of its own: `destinations` holds the destination. Read and
  /// written with the storage's lock held.
  @exclusivity(unchecked) var soleDestination: Unmanaged<_Destination>? = nil
  /// Where the second half of each value sent lies, in bytes from its
  /// start, for ``_Handler/pair(_:)`` handlers: the new value in an
  /// observable value's change; 0 for other events, which have none.
  let pairOffset: Int
  /// Whether each send keeps its value in `latest`, for new subscriptions.
  @usableFromInline let replaysLatest: Bool
  /// The value sent last, if the core replays it; read and written only
  /// with the storage's lock held, in the critical section that orders the
  /// sends and the one that makes a registration.
  @exclusivity(unchecked) var latest: Value? = nil

  /// The subscription upstream of a derived event, which its registrations
  /// connect; `nil` for every other event.
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
    // A subscription with no target is held by the core itself.
    storage.setOwner(self)
  }

  /// Registers `handler` for as long as `target` lives or, without a
  /// target, for as long as the returned subscription is kept; it runs on
  /// `isolation`.
  ///
  /// Every subscription of the ``Event`` and ``ObservableValue`` faces is
  /// made here.
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
  /// lives, with no subscription to end it earlier; it hears first the
  /// latest value, if the core replays one.
  @usableFromInline
  func register(
    _ object: AnyObject, from isolation: (any Actor)?, handler: _Handler
  ) -> _Registration {
    register(object, from: isolation, handler: handler, startingWith: nil) { _ in }
  }

  /// ``register(_:from:handler:)``, with `registered` run in the critical
  /// section that makes the registration, before any delivery can reach it,
  /// with the registration and the index of its destination in `destinations`.
  func register(
    _ object: AnyObject, from isolation: (any Actor)?, handler: _Handler,
    registered: (_Registration, _ destination: Int) -> Void
  ) -> _Registration {
    // The destination of an actor is looked up only when the event has no
    // destination for it yet, and outside the critical section: the lookup takes
    // the registry's lock, which is never taken inside the storage's.
    var destination: _Destination? = nil
    while true {
      let registered = storage.mutate {
        state, garbage -> (_Registration, _OccupancyNotices.Outcome)? in
        let destinationIndex: Int
        let identity = isolation.map { ObjectIdentifier($0) }
        var index = destinations.firstIndex { $0.actorIdentity == identity }
        // (A destination of the caller's identity belongs to the caller, which is
        // alive, or to a dead actor: loading its actor releases no other.)
        if let found = index, destinations[found].isOrphaned {
          // A new actor has a dead one's identity: the dead one's destination goes,
          // with its subscriptions, and is never this actor's.
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
        let subscriber = _Subscriber(
          isolation: destinations[destinationIndex].key, handler: handler)
        let registration = state.append(object, payload: subscriber, &garbage)
        registered(registration, destinationIndex)
        return (registration, notices.record(isOccupied: true))
      }
      if let (registration, outcome) = registered {
        notifyOwner(outcome, from: isolation)
        // A derived event is connected upstream before its subscription is
        // returned: it hears every value sent after.
        upstream?.update()
        return registration
      }
      destination = _Destination.of(isolation)
    }
  }

  /// Ends the subscriptions of `destination`, whose actor is gone, and drops the
  /// destination.
  ///
  /// A subscription made on an actor ends with it. Call it in a critical
  /// section of the storage.
  ///
  /// It loads no other destination's actor: a load there could release the last
  /// reference to one, and run its deinitializer with the lock held.
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

  /// The destinations' destinations, for tests.
  var destinationsForTesting: [_Destination] {
    storage.withLockedState(changing: false) { _ in destinations }
  }
}
