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

/// A replaying event's latest value, replaced by a send: released after
/// unlocking, with the send.
final class _Replaced<Value> {
  let value: Value
  init(value: Value) { self.value = value }
}

/// One subscription's payload: its handler, and the key of the destination
/// it runs on, with that destination's count (D6).
struct _Subscriber {
  let isolation: _IsolationKey
  let handler: _Handler
  /// Where the event counts the destination's registrations: alive while
  /// this registration is not removed (D6).
  let counted: Unmanaged<_CoreState.Subscribed>?

  /// What an ended subscription's entry keeps until the storage compacts.
  static var ended: _Subscriber {
    _Subscriber(isolation: .noActor, handler: .value { _ in }, counted: nil)
  }
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
    storage = Registry(guarding: _CoreState(), onRemoval: _CoreState.removed)
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

  deinit {
    storage.withLockedState(changing: false) { $0.guarded.releaseAll() }
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
  /// that makes the registration, before any send can reach it, with its
  /// destination; what it dropped goes to `garbage`.
  ///
  /// - Returns: The registration, and what is left to do once no lock is
  ///   held (``follow(_:from:)``).
  func register(
    _ object: AnyObject, from isolation: (any Actor)?, handler: _Handler,
    into garbage: inout _SubscriberGarbage,
    registered: (
      _Registration, Unmanaged<_CoreState.Subscribed>, inout _CoreState, _ latest: inout Value?
    ) -> Void
  ) -> (_Registration, _Followup) {
    let key = _IsolationKey(isolation)
    // An actor's destination is looked up outside the section (D12).
    var lookedUp: _Destination? = nil
    while true {
      let (made, _) = change(from: isolation, into: &garbage, isRecorded: true) {
        state, garbage -> (_Registration, _OccupancyNotices.Outcome)? in
        var counted = state.guarded.subscribed(key)
        // A dead actor's, at the caller's identity, goes first (D7).
        if let found = counted, found._withUnsafeGuaranteedRef({ $0.destination.isOrphaned }) {
          drop(orphaned: [found.takeUnretainedValue().destination], &state, &garbage)
          counted = nil
        }
        if let counted {
          state.guarded.subscribe(to: counted)
        } else {
          guard isolation == nil || lookedUp != nil else { return nil }
          counted = state.guarded.add(lookedUp ?? state.guarded.ownDestination)
        }
        _check(
          counted.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.destination.serves(isolation) },
          "D7: a subscription is recorded on a destination that does not serve its isolation")
        let registration = state.append(
          object, payload: _Subscriber(isolation: key, handler: handler, counted: counted),
          &garbage)
        registered(registration, counted.unsafelyUnwrapped, &state.guarded, &latest)
        return (registration, state.guarded.notices.record(isOccupied: true))
      }
      if let (registration, outcome) = made {
        return (registration, _Followup(outcome: outcome, connectsUpstream: true))
      }
      lookedUp = _Destination.of(isolation)
    }
  }

  /// ``send(at:from:)``'s every case but the common one, in its section:
  /// out of line, so that only here is a `Value` handled.
  @inline(never)
  func arrive(
    at value: UnsafeRawPointer, _ state: inout Registry.State, from isolation: (any Actor)?,
    into decided: UnsafeMutablePointer<_LocalSend>
  ) {
    let sent = Self.value(at: value)
    var replaced: AnyObject? = nil
    if replaysLatest {
      // Boxed, to be released with the send, after unlocking.
      replaced = latest.take().map { _Replaced(value: $0) }
      latest = sent
    }
    arrive(sent, &state, from: isolation, into: decided)
    decided.pointee.replaced = replaced
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

  /// Ends the subscriptions of `orphans`, destinations whose actors are
  /// gone, which goes with them (D7): in one pass over the registrations,
  /// however many they are, loading no target (D12).
  ///
  /// - Complexity: O(n + k), where n is the number of registrations and k
  ///   of orphans.
  func drop(
    orphaned orphans: [_Destination], _ state: inout Registry.State,
    _ garbage: inout Registry.Garbage
  ) {
    var marked: [Unmanaged<_CoreState.Subscribed>] = []
    for orphan in orphans {
      guard let counted = state.guarded.subscribed(orphan.key),
        counted._withUnsafeGuaranteedRef({ $0.destination === orphan })
      else { continue }
      counted._withUnsafeGuaranteedRef { $0.isOrphaned = true }
      marked.append(counted)
    }
    guard !marked.isEmpty else { return }
    state.removeAll(&garbage, replacingPayloadsWith: _Subscriber.ended) { _, subscriber in
      subscriber.counted?._withUnsafeGuaranteedRef { $0.isOrphaned } ?? false
    }
    // Parked now, if not dropped with the others: dropped at once.
    for counted in marked
    where state.guarded.subscribed(counted._withUnsafeGuaranteedRef { $0.key })?.toOpaque()
      == counted.toOpaque()
    {
      state.guarded.dropParked(counted)
    }
  }

  /// Drops `orphans`, destinations whose actors are gone, with their
  /// subscriptions, in one change.
  func drop(orphaned orphans: [_Destination]) {
    change(from: nil) { state, garbage in drop(orphaned: orphans, &state, &garbage) }
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
    storage.withLockedState(changing: false) {
      $0.guarded.destinations.map { $0.takeUnretainedValue() }.filter { $0.count > 0 }.map(
        \.destination)
    }
  }
}

/// What an event core's storage guards besides the registrations, kept in
/// the storage's state: reached only in one of its sections. (Not generic,
/// so that the state's layout is known to code not specialized for a value.)
@usableFromInline
struct _CoreState {
  /// A destination and the number of registrations not removed that
  /// record its key (D6); a class, so that a count changes in place.
  final class Subscribed {
    let key: _IsolationKey
    let destination: _Destination
    var count = 1
    /// Whether its actor is gone and its registrations are being dropped.
    var isOrphaned = false
    /// Where it is in `destinations`.
    fileprivate var position: Int

    init(_ destination: _Destination, at position: Int) {
      key = destination.key
      self.destination = destination
      self.position = position
    }
  }

  /// The destinations the event's subscriptions run on, and those emptied:
  /// one is added by the first registration on it and *parked* (count 0)
  /// by its last; the parked are dropped together once they outnumber the
  /// others and four, so that a destination emptied and used again costs
  /// no allocation, and each is dropped in amortized O(1) (D6).
  ///
  /// Each holds one reference, given back when it is dropped or by
  /// ``releaseAll()``, so that reading one counts no reference.
  private(set) var destinations: [Unmanaged<Subscribed>] = []
  /// How many of `destinations` are parked.
  private var parked = 0
  /// `destinations` by key, once they are too many to search.
  private var index: [_IsolationKey: Unmanaged<Subscribed>]? = nil
  /// The destination, when exactly one is in use; `destinations` holds it.
  private(set) var soleDestination: Unmanaged<_Destination>? = nil
  /// The event's destination of no actor, kept for the core's life once
  /// made, so that a send may deliver there holding no reference to it.
  private var ownDestinationIfMade: _Destination? = nil
  /// The owner's notices, recorded and told (D10).
  var notices = _OccupancyNotices()
  /// An observable value's registrar for Observation, made by its first
  /// read of the value.
  @usableFromInline var observation: _ValueObservation? = nil

  /// The event's destination of no actor, made on first use.
  var ownDestination: _Destination {
    mutating get {
      if let ownDestinationIfMade { return ownDestinationIfMade }
      let made = _Destination(actor: nil)
      ownDestinationIfMade = made
      return made
    }
  }

  /// The destination with `key`, and its count.
  ///
  /// - Complexity: O(1) on average: a search of at most 8, or a lookup.
  func subscribed(_ key: _IsolationKey) -> Unmanaged<Subscribed>? {
    if let index { return index[key] }
    return destinations.first { $0._withUnsafeGuaranteedRef { $0.key == key } }
  }

  /// Whether any destination is in use: whether a registration is not
  /// removed.
  var isUsed: Bool { destinations.count > parked }

  /// Counts a registration on `counted`, taking it out of the parked.
  mutating func subscribe(to counted: Unmanaged<Subscribed>) {
    let wasParked = counted._withUnsafeGuaranteedRef {
      $0.count += 1
      return $0.count == 1
    }
    guard wasParked else { return }
    parked -= 1
    noteSole()
  }

  /// Adds `destination`, with its first registration.
  ///
  /// - Complexity: O(1) on average.
  mutating func add(_ destination: _Destination) -> Unmanaged<Subscribed> {
    let added = Unmanaged.passRetained(Subscribed(destination, at: destinations.count))
    destinations.append(added)
    if index != nil {
      index![destination.key] = added
    } else if destinations.count > 8 {
      index = Dictionary(
        uniqueKeysWithValues: destinations.lazy.map { ($0.takeUnretainedValue().key, $0) })
    }
    noteSole()
    return added
  }

  /// The storage's `onRemoval`: a function with no context.
  static func removed(_ state: inout _CoreState, _ subscriber: UnsafePointer<_Subscriber>) {
    state.unsubscribed(subscriber.pointee)
  }

  /// Counts the registration of `subscriber` removed, parking its
  /// destination with the last: the storage calls it for every removal.
  ///
  /// - Complexity: O(1), amortized.
  mutating func unsubscribed(_ subscriber: borrowing _Subscriber) {
    guard let counted = subscriber.counted else {
      preconditionFailure("D6: an ended registration was removed again")
    }
    let isLast = counted._withUnsafeGuaranteedRef {
      $0.count -= 1
      return $0.count == 0
    }
    guard isLast else { return }
    parked += 1
    if parked > Swift.max(4, destinations.count - parked) { dropParked() }
    noteSole()
  }

  /// Drops `counted`, parked, now.
  mutating func dropParked(_ counted: Unmanaged<Subscribed>) {
    let (position, key) = counted._withUnsafeGuaranteedRef { ($0.position, $0.key) }
    // The last takes its place.
    let last = destinations.removeLast()
    if last.toOpaque() != counted.toOpaque() {
      last._withUnsafeGuaranteedRef { $0.position = position }
      destinations[position] = last
    }
    index?[key] = nil
    if destinations.isEmpty { index = nil }
    parked -= 1
    counted.release()
    noteSole()
  }

  /// Drops every parked destination.
  ///
  /// - Complexity: O(d), where d is the number of destinations.
  private mutating func dropParked() {
    var position = destinations.count
    while position > 0 {
      position -= 1
      let counted = destinations[position]
      if counted._withUnsafeGuaranteedRef({ $0.count == 0 }) { dropParked(counted) }
    }
  }

  /// Gives back every destination's reference, when the event goes.
  mutating func releaseAll() {
    for counted in destinations { counted.release() }
    destinations.removeAll()
    parked = 0
    index = nil
    soleDestination = nil
  }

  private mutating func noteSole() {
    guard destinations.count - parked == 1 else {
      soleDestination = nil
      return
    }
    let used = destinations.first { $0._withUnsafeGuaranteedRef { $0.count > 0 } }
    soleDestination = used?._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.destination) }
  }
}
