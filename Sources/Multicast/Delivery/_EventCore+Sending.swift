// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// The lanes a send delivers where it runs, as their destinations said:
/// at most two, the lane of subscriptions made where no actor is and the
/// lane of the isolation the send runs on.
@usableFromInline
struct _LocalSend: ~Copyable {
  /// One lane the send delivers itself.
  struct Claimed {
    let lane: _Destination
    /// Whether the send is delivered from its own value (nothing waited);
    /// otherwise `batch` holds what waited, then the send.
    let isDirect: Bool
    var batch: [_DeliveryJob]
  }

  let end: UInt64
  var first: Claimed?
  var second: Claimed?
  /// The broadcast a direct delivery walks, begun in the send's critical
  /// section, so that it costs no second one.
  var cursor: _BroadcastCursor<_Subscriber, _Unindexed>?
}

/// An object no subscription records as its isolation, since it is no
/// actor: what a walk matches when it serves one lane only.
private final class _NoLane: Sendable {
  static let instance = _NoLane()
}
let noLane = _IsolationKey(unmatched: _NoLane.instance)

/// The `end` of a job that tells the owner of its notices rather than
/// delivering a value: no registration is numbered this high.
let _noticeJobEnd = UInt64.max

extension _EventCore: _DeliverySource {
  /// Delivers `value` to every subscription: before returning, to those on
  /// lanes where the caller runs; queued for the others.
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
    if !replaysLatest, let sole = claimSoleLane(from: isolation) {
      deliverAlone(value, on: sole.lane, from: sole.cursor)
    } else {
      sendOnLanes(Self.value(at: value), from: isolation)
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
  private func sendOnLanes(_ value: Value, from isolation: (any Actor)?) {
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
  /// The common case: the event has one lane, the caller runs on it, and no
  /// delivery is under way or waiting there. Returns the lane, claimed, and
  /// the walk begun for the send; `nil`, having changed nothing, in every
  /// other case.
  ///
  /// The lane of the main actor, or of no actor, is returned unretained:
  /// `lanes` holds it until the send itself settles it or delivers work
  /// that others queued there. Such a lane leaves `lanes` only when its
  /// deliverer finds no subscription left on it (``settle(_:)``), which this
  /// send alone can do while it delivers; the send takes a reference of its
  /// own before it settles the lane or delivers the others' work. (The main
  /// actor's destination is never freed anyway.) The lane of another actor
  /// is retained here: a registration on another thread drops the lanes of
  /// dead actors, and the send holds its lane whatever happens to it.
  @inline(__always)
  private func claimSoleLane(
    from isolation: (any Actor)?
  ) -> (lane: Unmanaged<_Destination>, cursor: _BroadcastCursor<_Subscriber, _Unindexed>)? {
    storage.withLockedState(changing: false) { state in
      guard let lane = soleLane,
        lane._withUnsafeGuaranteedRef({ $0.isCurrent(isolation) && $0.claimIfIdle() })
      else { return nil }
      if lane._withUnsafeGuaranteedRef({ $0.isOfMortalActor }) { _ = lane.retain() }
      return (lane, state.beginBroadcast())
    }
  }

  /// Delivers a send on the sole lane ``claimSoleLane(from:)`` claimed,
  /// then whatever was queued there meanwhile, and gives back the
  /// reference that claiming took, if it took one.
  @inline(__always)
  private func deliverAlone(
    _ value: UnsafeRawPointer, on lane: Unmanaged<_Destination>,
    from cursor: _BroadcastCursor<_Subscriber, _Unindexed>
  ) {
    var cursor = Optional(cursor)
    let (key, isRetained) = lane._withUnsafeGuaranteedRef { ($0.key, $0.isOfMortalActor) }
    defer { if isRetained { lane.release() } }
    let reached = walk(value, from: &cursor, end: cursor.unsafelyUnwrapped.end, key, key).first
    guard reached else {
      // Settling may take the lane out of `lanes`: hold it from here on.
      let lane = lane.takeUnretainedValue()
      settle(lane)
      if !lane.finishIfAlone() { lane.deliverQueued() }
      return
    }
    if lane._withUnsafeGuaranteedRef({ $0.finishIfAlone() }) { return }
    // Delivering what was queued meanwhile may settle the lane, which may
    // take it out of `lanes`: hold it from here on.
    lane.takeUnretainedValue().deliverQueued()
  }

  /// Queues `value` on every lane where the caller does not run, and claims
  /// the others, in one step that fixes its place in every lane's order:
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
    // One critical section reads the lanes and the send's end, makes the
    // send's arrivals (each destination's lock nests inside the storage's;
    // nothing takes them the other way round), and begins the walk of a
    // direct delivery.
    let local = storage.withLockedState(changing: false) { state in
      let value = makeValue()
      var local = _LocalSend(end: state.nextSequence)
      for lane in lanes {
        var batch: [_DeliveryJob] = []
        let arrival = lane.arrive(
          { _DeliveryJob(self, payload: value, end: local.end) }, from: isolation,
          taking: &batch)
        switch arrival {
        case .deliverDirectly, .deliverBatch:
          let claimed = _LocalSend.Claimed(
            lane: lane, isDirect: arrival == .deliverDirectly, batch: consume batch)
          if local.first == nil { local.first = claimed } else { local.second = claimed }
        case .scheduleDrain:
          idle.append(lane)
        case .none:
          break
        }
      }
      if local.first?.isDirect == true || local.second?.isDirect == true {
        local.cursor = state.beginBroadcast()
      }
      return local
    }
    for lane in idle { lane.scheduleDrain() }
    return local
  }

  /// Delivers what ``prepare(_:from:)`` claimed, then whatever was queued on
  /// those lanes meanwhile.
  ///
  /// When both lanes deliver the send directly, one walk serves both, so
  /// that their subscriptions are called in the order they were made.
  @usableFromInline
  func deliver(_ local: inout _LocalSend, _ value: Value) {
    // Each claimed lane is moved out of `local`, so that its batch is
    // uniquely referenced and goes back to its queue without a copy.
    guard var first = local.first.take() else { return }
    var second = local.second.take()
    var cursor = local.cursor.take()
    withUnsafePointer(to: value) { value in
      if first.isDirect, second?.isDirect ?? true {
        let reached = walk(
          value, from: &cursor, end: local.end, first.lane.key,
          second.map { $0.lane.key } ?? noLane)
        finish(&first, reachedAny: reached.first)
        if var second = second.take() { finish(&second, reachedAny: reached.second) }
        return
      }
      deliver(&first, value, from: &cursor, end: local.end)
      if var second = second.take() { deliver(&second, value, from: &cursor, end: local.end) }
    }
    // A walk begun for nothing (a direct lane after one that had work) ends.
    if let cursor { storage.endBroadcast(cursor) }
  }

  /// Delivers one claimed lane on its own.
  private func deliver(
    _ claimed: inout _LocalSend.Claimed, _ value: UnsafeRawPointer,
    from cursor: inout _BroadcastCursor<_Subscriber, _Unindexed>?, end: UInt64
  ) {
    if claimed.isDirect {
      let reached = walk(value, from: &cursor, end: end, claimed.lane.key, noLane)
      finish(&claimed, reachedAny: reached.first)
    } else {
      claimed.lane.deliverQueued(&claimed.batch)
    }
  }

  /// After the walk that delivered a claimed lane's send directly: settles
  /// the lane if the walk reached no one on it, then delivers what was
  /// queued on it meanwhile.
  @inline(__always) private func finish(_ claimed: inout _LocalSend.Claimed, reachedAny: Bool) {
    if !reachedAny { settle(claimed.lane) }
    claimed.lane.deliverQueued(&claimed.batch)
  }
}
