// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What a send's section let go of (a replaced latest value, superseded
/// ones), a list released with the send (D12).
final class _Released {
  let first: Any
  let rest: AnyObject?

  init(_ first: Any, _ rest: AnyObject?) {
    self.first = first
    self.rest = rest
  }
}

/// One subscription's payload: its handler, its destination's key and count.
struct _Subscriber {
  let isolation: _IsolationKey
  let handler: _Handler
  /// The destination's count, alive while this registration is not removed (D6).
  let counted: Unmanaged<_CoreState.Subscribed>?

  /// What an ended subscription's entry keeps until the storage compacts.
  static var ended: _Subscriber {
    _Subscriber(isolation: .noActor, handler: .value { _ in }, counted: nil)
  }
}

/// The registry behind one event (README.md, section 1): a registration holds
/// its target weakly or, with none, the core itself, the storage's host, and
/// ends when its subscription is released or cancelled.
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
  /// Where the notices run: the owner's actor's destination, `nil` for none.
  let ownerDestination: _Destination?
  let onFirstObserver: (() -> Void)?
  let onLastObserverGone: (() -> Void)?
  let hasNotices: Bool
  /// Where the second half of each value lies, in bytes, for
  /// ``_Handler/pair(_:)`` handlers: an observable value's new value.
  let pairOffset: Int
  /// Whether each send keeps its value in `latest`, for new subscriptions.
  @usableFromInline let replaysLatest: Bool
  /// What a new subscription hears first: the latest value sent, if the core
  /// replays it, or an observable value's current value as `(old: v, new: v)`;
  /// private to this file's sections, which pass it on, and unchecked, since
  /// the lock makes access exclusive (see Performance).
  @exclusivity(unchecked) private var latest: Value?

  /// A derived event's link to the event it derives from (D11).
  let upstream: _UpstreamLink?
  /// Whether a waiting value is replaced by a newer one (README.md, section 4).
  let coalesces: Bool
  /// Merges two changes waiting into one (``mergingChanges(_:_:)``).
  let mergeChanges: ((_ older: UnsafeRawPointer, _ newer: UnsafeRawPointer) -> Value)?
  /// Whether anything can still send here, and what ends when nothing can
  /// (`_EventCore+Ending.swift`); guarded as `latest` is.
  var ending = _Ending()

  init(
    owner: (any Actor)?, onFirstObserver: (() -> Void)?, onLastObserverGone: (() -> Void)?,
    replaysLatest: Bool = false, pairOffset: Int = 0, latest: Value? = nil,
    upstream: _UpstreamLink? = nil, coalesces: Bool = false,
    mergeChanges: ((UnsafeRawPointer, UnsafeRawPointer) -> Value)? = nil
  ) {
    storage = Registry(guarding: _CoreState())
    self.latest = latest
    self.upstream = upstream
    self.coalesces = coalesces
    self.mergeChanges = mergeChanges
    ownerDestination = owner.map { _Destination.of($0) }
    self.onFirstObserver = onFirstObserver
    self.onLastObserverGone = onLastObserverGone
    hasNotices = onFirstObserver != nil || onLastObserverGone != nil
    self.replaysLatest = replaysLatest
    self.pairOffset = pairOffset
    storage.setHost(self)
  }

  deinit {
    storage.withReadingSection { $0.guarded.releaseAll() }
  }

  /// Registers `handler` on `isolation` while `object` lives; it hears the
  /// latest value first if the core replays.
  @usableFromInline
  func register(
    _ object: AnyObject, from isolation: (any Actor)?, handler: _Handler
  ) -> _Registration {
    register(object, from: isolation, handler: handler, startingWithLatest: false) { _ in }
  }

  /// ``register(_:from:handler:)``, with `registered` run in the section that
  /// makes the registration, before any send can reach it; what it dropped goes
  /// to `garbage`, and what is left to do once no lock is held is returned.
  func register(
    _ object: AnyObject, from isolation: (any Actor)?, handler: _Handler,
    into garbage: inout _CoreState.Garbage,
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
          drop(orphaned: [found.takeUnretainedValue()], &state, &garbage)
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
      replaced = latest.take().map { _Released($0, nil) }
      latest = sent
    }
    arrive(sent, &state, from: isolation, into: decided)
    if let replaced {
      // With what a coalescing send superseded, if anything.
      decided.pointee.replaced =
        decided.pointee.replaced.map { _Released(replaced, $0) } ?? replaced
    }
  }

  /// Runs `body` in a reading section of the storage, with the latest value.
  @inline(__always)
  func withReadingSection<Result: ~Copyable>(
    _ body: (inout Registry.State, _ latest: inout Value?) -> Result
  ) -> Result {
    storage.withReadingSection { state in body(&state, &latest) }
  }

  /// Runs `body` in a reading section, on ``_CoreState`` and the latest value.
  @usableFromInline
  func withLatest<Result>(_ body: (inout _CoreState, _ latest: inout Value?) -> Result) -> Result {
    withReadingSection { state, latest in body(&state.guarded, &latest) }
  }

  @discardableResult
  func unsubscribe(_ registration: _Registration, from isolation: (any Actor)?) -> Bool {
    change(from: isolation) { state, garbage in
      state.removeRegistration(registration, &garbage, replacingPayloadWith: _Subscriber.ended)
    }
  }

  /// Ends every subscription bound to `target`; returns how many there were.
  func unsubscribeAll(boundTo target: AnyObject, from isolation: (any Actor)?) -> Int {
    let removed = change(from: isolation) { state, garbage in
      state.removeAll(heldBy: target, &garbage, replacingPayloadsWith: _Subscriber.ended)
    }
    return removed + (latestOnlyIfMade?.unsubscribeAll(boundTo: target, from: isolation) ?? 0)
  }

  /// The core of the subscriptions that hear only the latest value, if alive.
  var latestOnlyIfMade: _EventCore<Value>? {
    withLatest { state, _ in state.latestOnly }.map { unsafeDowncast($0, to: _EventCore.self) }
  }

  /// Ends every subscription, those that hear only the latest value too.
  func unsubscribeAll(from isolation: (any Actor)?) {
    change(from: isolation) { state, garbage in _ = state.removeAll(&garbage) }
    latestOnlyIfMade?.unsubscribeAll(from: isolation)
  }

  var hasObservers: Bool { !storage.isEmpty }

  /// The destinations, for tests.
  var destinationsForTesting: [_Destination] {
    storage.withReadingSection {
      $0.guarded.destinations.map { $0.takeUnretainedValue() }.filter { $0.count > 0 }.map(
        \.destination)
    }
  }
}
