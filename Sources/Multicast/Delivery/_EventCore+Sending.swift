// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A walk of the subscriptions of an event, begun without or with the lock.
typealias _SubscriberCursor = _BroadcastCursor<_Subscriber, _NoIndex>

/// The destinations a send delivers itself, where it runs: at most two, the
/// event's destination of no actor and that of the send's isolation.
@usableFromInline
struct _LocalSend: ~Copyable {
  /// One destination the send delivers itself.
  struct Claimed {
    let destination: _Destination
    /// Whether the send skips the queue: nothing waited, so a walk delivers
    /// it from its own value; otherwise `batch` holds what waited, then it.
    let skipsQueue: Bool
    var batch: [_DeliveryJob]
  }

  let end: UInt64
  var first: Claimed?
  var second: Claimed?
  /// Any more, each delivered on its own: only actors that share the
  /// sender's executor make more than two.
  var others: [Claimed] = []
  /// The walk of a send that skips the queue, begun in its section (D5).
  var cursor: _SubscriberCursor?
}

/// An object that is no destination: its key matches no subscription.
private final class _NoDestination: Sendable {
  static let instance = _NoDestination()
}
let noDestination = _IsolationKey(unmatched: _NoDestination.instance)

extension _EventCore: _DeliverySource {
  /// Delivers `value` to every subscription: before returning, to those on
  /// destinations where the caller runs; queued for the others.
  ///
  /// Inlined, so that the caller's module lends the value by a pointer with
  /// its type known: the common case never handles a `Value` here.
  @inlinable
  func send(_ value: Value, from isolation: (any Actor)?) {
    withUnsafePointer(to: value) { send(at: UnsafeRawPointer($0), from: isolation) }
  }

  /// ``send(_:from:)`` of the value at `value`.
  @usableFromInline
  func send(at value: UnsafeRawPointer, from isolation: (any Actor)?) {
    var loaded: [any Actor] = []
    if !replaysLatest, let sole = claimSoleDestination(from: isolation, keepingAlive: &loaded) {
      loaded.removeAll()  // after unlocking (D12)
      deliverOnSoleDestination(value, on: sole.destination, from: sole.cursor)
    } else {
      loaded.removeAll()
      sendToEachDestination(Self.value(at: value), from: isolation)
    }
  }

  /// ``send(_:from:)`` in every case but the common one, out of line.
  ///
  /// It takes the lock again, which costs less than carrying the general
  /// case's state out of the common case's section. A replaced latest value
  /// is released after unlocking.
  @inline(never)
  private func sendToEachDestination(_ value: Value, from isolation: (any Actor)?) {
    var replaced: Value?
    var local = prepare(from: isolation) { _, latest in
      if replaysLatest {
        replaced = latest.take()
        latest = value
      }
      return value
    }
    deliver(&local, value)
    withExtendedLifetime(replaced) {}
  }

  /// Claims the common case, one idle destination where the caller runs, in
  /// one short section; returns it, claimed, and the walk begun for the
  /// send, or `nil`, having changed nothing.
  ///
  /// A mortal actor's destination is retained, since a registration on
  /// another thread may drop it (D7); the others stay in `destinations`
  /// until this send itself drops them.
  @inline(__always)
  private func claimSoleDestination(
    from isolation: (any Actor)?, keepingAlive loaded: inout [any Actor]
  ) -> (destination: Unmanaged<_Destination>, cursor: _SubscriberCursor)? {
    storage.withLockedState(changing: false) { state in
      guard let destination = state.guarded.soleDestination,
        destination._withUnsafeGuaranteedRef({
          $0.isCurrent(isolation, keepingAlive: &loaded) && $0.claimIfIdle()
        })
      else { return nil }
      if destination._withUnsafeGuaranteedRef({ $0.isOfMortalActor }) { _ = destination.retain() }
      return (destination, state.beginBroadcast())
    }
  }

  /// Delivers a send on the destination ``claimSoleDestination(from:)``
  /// claimed, then what was queued there meanwhile.
  @inline(__always)
  private func deliverOnSoleDestination(
    _ value: UnsafeRawPointer, on destination: Unmanaged<_Destination>,
    from cursor: _SubscriberCursor
  ) {
    var cursor = Optional(cursor)
    let (key, isRetained) = destination._withUnsafeGuaranteedRef { ($0.key, $0.isOfMortalActor) }
    defer { if isRetained { destination.release() } }
    #if DEBUG || MULTICAST_INTERNAL_CHECKS
    destination._withUnsafeGuaranteedRef { $0.checkDelivering() }
    #endif
    let reached = walk(value, from: &cursor, end: cursor.unsafelyUnwrapped.end, key, key).first
    guard reached else {
      // Dropping it may take it out of `destinations`: held from here on.
      let destination = destination.takeUnretainedValue()
      dropIfUnobserved(destination)
      if !destination.finishIfOnlyDelivering() { destination.deliverQueued() }
      return
    }
    if destination._withUnsafeGuaranteedRef({ $0.finishIfOnlyDelivering() }) { return }
    // What was queued may drop it from `destinations`: held from here on.
    destination.takeUnretainedValue().deliverQueued()
  }

  /// Queues `value` where the caller does not run and claims the
  /// destinations where it does, in one step that fixes its place in every
  /// destination's order (D4); ``deliver(_:_:)`` after it.
  @usableFromInline
  func prepare(_ value: Value, from isolation: (any Actor)?) -> _LocalSend {
    prepare(from: isolation) { _, _ in value }
  }

  /// ``prepare(_:from:)`` for the value `makeValue` makes in the same
  /// section: an assignment, which reads and changes the current value.
  @usableFromInline @inline(__always)
  func prepare(
    from isolation: (any Actor)?, _ makeValue: (inout _CoreState, _ latest: inout Value?) -> Value
  ) -> _LocalSend {
    var idle: [_Destination] = []
    var loaded: [any Actor] = []
    // One section reads the send's end, makes its arrivals and begins the
    // walk of one that skips the queue (D4, D5, D12).
    let local = withLockedState { state, latest in
      let value = makeValue(&state.guarded, &latest)
      var local = _LocalSend(end: state.nextSequence)
      for destination in state.guarded.destinations {
        var batch: [_DeliveryJob] = []
        let arrival = destination.arrive(
          { _DeliveryJob(self, .send(_Value(value: value), end: local.end)) }, from: isolation,
          taking: &batch, keepingAlive: &loaded)
        switch arrival {
        case .deliverDirectly, .deliverBatch:
          let claimed = _LocalSend.Claimed(
            destination: destination, skipsQueue: arrival == .deliverDirectly,
            batch: consume batch)
          if local.first == nil {
            local.first = claimed
          } else if local.second == nil {
            local.second = claimed
          } else {
            local.others.append(claimed)
          }
        case .scheduleDrain:
          idle.append(destination)
        case .none:
          break
        }
      }
      if local.first?.skipsQueue == true || local.second?.skipsQueue == true {
        local.cursor = state.beginBroadcast()
      }
      return local
    }
    loaded.removeAll()  // after unlocking (D12)
    for destination in idle { destination.scheduleDrain() }
    return local
  }

  /// Delivers what ``prepare(_:from:)`` claimed, then what was queued on
  /// those destinations meanwhile; when both skip the queue one walk serves
  /// both, so that their subscriptions are called in registration order.
  @usableFromInline
  func deliver(_ local: inout _LocalSend, _ value: Value) {
    // Moved out of `local`, so that each batch goes back without a copy.
    guard var first = local.first.take() else { return }
    var second = local.second.take()
    var cursor = local.cursor.take()
    withUnsafePointer(to: value) { value in
      if first.skipsQueue, second?.skipsQueue ?? true {
        #if DEBUG || MULTICAST_INTERNAL_CHECKS
        first.destination.checkDelivering()
        second?.destination.checkDelivering()
        #endif
        let reached = walk(
          value, from: &cursor, end: local.end, first.destination.key,
          second.map { $0.destination.key } ?? noDestination)
        finish(&first, reachedAny: reached.first)
        if var second = second.take() { finish(&second, reachedAny: reached.second) }
      } else {
        deliver(&first, value, from: &cursor, end: local.end)
        if var second = second.take() { deliver(&second, value, from: &cursor, end: local.end) }
      }
      for index in local.others.indices {
        deliver(&local.others[index], value, from: &cursor, end: local.end)
      }
    }
    // A walk begun for a send that, in the end, did not use it.
    if let cursor { storage.endBroadcast(cursor) }
  }

  /// Delivers one claimed destination on its own.
  private func deliver(
    _ claimed: inout _LocalSend.Claimed, _ value: UnsafeRawPointer,
    from cursor: inout _SubscriberCursor?, end: UInt64
  ) {
    if claimed.skipsQueue {
      #if DEBUG || MULTICAST_INTERNAL_CHECKS
      claimed.destination.checkDelivering()
      #endif
      let reached = walk(value, from: &cursor, end: end, claimed.destination.key, noDestination)
      finish(&claimed, reachedAny: reached.first)
    } else {
      claimed.destination.deliverQueued(&claimed.batch)
    }
  }

  /// After a walk delivered a claimed destination's send: drops the
  /// destination if the walk reached no one there, then delivers what was
  /// queued meanwhile.
  @inline(__always) private func finish(_ claimed: inout _LocalSend.Claimed, reachedAny: Bool) {
    if !reachedAny { dropIfUnobserved(claimed.destination) }
    claimed.destination.deliverQueued(&claimed.batch)
  }
}
