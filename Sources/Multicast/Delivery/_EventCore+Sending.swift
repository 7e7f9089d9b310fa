// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// The destinations a send delivers where it runs, as their destinations said:
/// at most two, the destination of subscriptions made where no actor is and the
/// destination of the isolation the send runs on.
@usableFromInline
struct _LocalSend: ~Copyable {
  /// One destination the send delivers itself.
  struct Claimed {
    let destination: _Destination
    /// Whether the send is delivered from its own value (nothing waited);
    /// otherwise `batch` holds what waited, then the send.
    let skipsQueue: Bool
    var batch: [_DeliveryJob]
  }

  let end: UInt64
  var first: Claimed?
  var second: Claimed?
  /// The broadcast a direct delivery walks, begun in the send's critical
  /// section, so that it costs no second one.
  var cursor: _BroadcastCursor<_Subscriber, _NoIndex>?
}

/// An object no subscription records as its isolation, since it is no
/// actor: what a walk matches when it serves one destination only.
private final class _NoDestination: Sendable {
  static let instance = _NoDestination()
}
let noDestination = _IsolationKey(unmatched: _NoDestination.instance)

/// The `end` of a job that tells the owner of its notices rather than
/// delivering a value: no registration is numbered this high.
let _noticeJobEnd = UInt64.max

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
    if !replaysLatest, let sole = claimSoleDestination(from: isolation) {
      deliverOnSoleDestination(value, on: sole.destination, from: sole.cursor)
    } else {
      sendToEachDestination(Self.value(at: value), from: isolation)
    }
  }

  /// ``send(_:from:)`` in every case but the common one: out of line, so
  /// that the common case sets up nothing for it.
  ///
  /// It takes the storage's lock again, after the attempt at the common
  /// case, which changed nothing: an uncontended lock costs less than what
  /// the common case would pay to carry the general one's state out of one
  /// critical section.
  ///
  /// A core that replays its latest value keeps it in the critical section
  /// that orders the send, and releases the one it replaces after it.
  @inline(never)
  private func sendToEachDestination(_ value: Value, from isolation: (any Actor)?) {
    var replaced: Value?
    var local = prepare(from: isolation) {
      if replaysLatest {
        replaced = latest.take()
        latest = value
      }
      return value
    }
    deliver(&local, value)
    withExtendedLifetime(replaced) {}
  }

  /// Claims the common case of a send in one short critical section.
  ///
  /// The common case: the event has one destination, the caller runs on it, and no
  /// delivery is under way or waiting there. Returns the destination, claimed, and
  /// the walk begun for the send; `nil`, having changed nothing, in every
  /// other case.
  ///
  /// The destination of the main actor, or of no actor, is returned unretained:
  /// `destinations` holds it until the send itself drops it or delivers work
  /// that others queued there. Such a destination leaves `destinations` only when its
  /// deliverer finds no subscription left on it (``dropIfUnobserved(_:)``), which this
  /// send alone can do while it delivers; the send takes a reference of its
  /// own before it drops the destination or delivers the others' work. (The main
  /// actor's destination is never freed anyway.) The destination of another actor
  /// is retained here: a registration on another thread drops the destinations of
  /// dead actors, and the send holds its destination whatever happens to it.
  @inline(__always)
  private func claimSoleDestination(
    from isolation: (any Actor)?
  ) -> (destination: Unmanaged<_Destination>, cursor: _BroadcastCursor<_Subscriber, _NoIndex>)? {
    storage.withLockedState(changing: false) { state in
      guard let destination = soleDestination,
        destination._withUnsafeGuaranteedRef({ $0.isCurrent(isolation) && $0.claimIfIdle() })
      else { return nil }
      if destination._withUnsafeGuaranteedRef({ $0.isOfMortalActor }) { _ = destination.retain() }
      return (destination, state.beginBroadcast())
    }
  }

  /// Delivers a send on the sole destination ``claimSoleDestination(from:)`` claimed,
  /// then whatever was queued there meanwhile, and gives back the
  /// reference that claiming took, if it took one.
  @inline(__always)
  private func deliverOnSoleDestination(
    _ value: UnsafeRawPointer, on destination: Unmanaged<_Destination>,
    from cursor: _BroadcastCursor<_Subscriber, _NoIndex>
  ) {
    var cursor = Optional(cursor)
    let (key, isRetained) = destination._withUnsafeGuaranteedRef { ($0.key, $0.isOfMortalActor) }
    defer { if isRetained { destination.release() } }
    let reached = walk(value, from: &cursor, end: cursor.unsafelyUnwrapped.end, key, key).first
    guard reached else {
      // Dropping it may take the destination out of `destinations`: hold it from here on.
      let destination = destination.takeUnretainedValue()
      dropIfUnobserved(destination)
      if !destination.finishIfOnlyDelivering() { destination.deliverQueued() }
      return
    }
    if destination._withUnsafeGuaranteedRef({ $0.finishIfOnlyDelivering() }) { return }
    // Delivering what was queued meanwhile may drops the destination, which may
    // take it out of `destinations`: hold it from here on.
    destination.takeUnretainedValue().deliverQueued()
  }

  /// Queues `value` on every destination where the caller does not run, and claims
  /// the others, in one step that fixes its place in every destination's order:
  /// call it in the critical section that orders the sends, and
  /// ``deliver(_:_:)`` after it.
  @usableFromInline
  func prepare(_ value: Value, from isolation: (any Actor)?) -> _LocalSend {
    prepare(from: isolation) { value }
  }

  /// Runs `body` with the storage's lock held: what guards an observable
  /// value's current value, so that one lock orders its assignments and
  /// their sends.
  ///
  /// It changes nothing in the storage's state, so it takes the lock alone
  /// (called unspecialized, a section's generic wrapper cost about 15
  /// instructions more).
  @usableFromInline
  func withLock<Result>(_ body: () -> Result) -> Result {
    storage.lock.lock()
    defer { storage.lock.unlock() }
    return body()
  }

  /// ``prepare(_:from:)`` for the value that `makeValue` makes in the same
  /// critical section: an assignment, which reads and changes the current
  /// value there.
  @usableFromInline @inline(__always)
  func prepare(from isolation: (any Actor)?, _ makeValue: () -> Value) -> _LocalSend {
    var idle: [_Destination] = []
    // One critical section reads the destinations and the send's end, makes the
    // send's arrivals (each destination's lock nests inside the storage's;
    // nothing takes them the other way round), and begins the walk of a
    // direct delivery.
    let local = storage.withLockedState(changing: false) { state in
      let value = makeValue()
      var local = _LocalSend(end: state.nextSequence)
      for destination in destinations {
        var batch: [_DeliveryJob] = []
        let arrival = destination.arrive(
          { _DeliveryJob(self, payload: value, end: local.end) }, from: isolation,
          taking: &batch)
        switch arrival {
        case .deliverDirectly, .deliverBatch:
          let claimed = _LocalSend.Claimed(
            destination: destination, skipsQueue: arrival == .deliverDirectly, batch: consume batch)
          if local.first == nil { local.first = claimed } else { local.second = claimed }
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
    for destination in idle { destination.scheduleDrain() }
    return local
  }

  /// Delivers what ``prepare(_:from:)`` claimed, then whatever was queued on
  /// those destinations meanwhile.
  ///
  /// When both destinations deliver the send directly, one walk serves both, so
  /// that their subscriptions are called in the order they were made.
  @usableFromInline
  func deliver(_ local: inout _LocalSend, _ value: Value) {
    // Each claimed destination is moved out of `local`, so that its batch is
    // uniquely referenced and goes back to its queue without a copy.
    guard var first = local.first.take() else { return }
    var second = local.second.take()
    var cursor = local.cursor.take()
    withUnsafePointer(to: value) { value in
      if first.skipsQueue, second?.skipsQueue ?? true {
        let reached = walk(
          value, from: &cursor, end: local.end, first.destination.key,
          second.map { $0.destination.key } ?? noDestination)
        finish(&first, reachedAny: reached.first)
        if var second = second.take() { finish(&second, reachedAny: reached.second) }
        return
      }
      deliver(&first, value, from: &cursor, end: local.end)
      if var second = second.take() { deliver(&second, value, from: &cursor, end: local.end) }
    }
    // A walk begun for nothing (a direct destination after one that had work) ends.
    if let cursor { storage.endBroadcast(cursor) }
  }

  /// Delivers one claimed destination on its own.
  private func deliver(
    _ claimed: inout _LocalSend.Claimed, _ value: UnsafeRawPointer,
    from cursor: inout _BroadcastCursor<_Subscriber, _NoIndex>?, end: UInt64
  ) {
    if claimed.skipsQueue {
      let reached = walk(value, from: &cursor, end: end, claimed.destination.key, noDestination)
      finish(&claimed, reachedAny: reached.first)
    } else {
      claimed.destination.deliverQueued(&claimed.batch)
    }
  }

  /// After the walk that delivered a claimed destination's send directly: drops
  /// the destination if the walk reached no one on it, then delivers what was
  /// queued on it meanwhile.
  @inline(__always) private func finish(_ claimed: inout _LocalSend.Claimed, reachedAny: Bool) {
    if !reachedAny { dropIfUnobserved(claimed.destination) }
    claimed.destination.deliverQueued(&claimed.batch)
  }
}
