// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// Delivering an event's queued work on one of its destinations, when the destination's
// turn comes, and the walk that every delivery makes.

extension _EventCore {
  /// Delivers a queued send (or the owner's notices) on `destination`, one
  /// of this event's destinations.
  func deliver(_ job: _DeliveryJob, at destination: _Destination) {
    if job.end == _noticeJobEnd {
      tellOwner()
      return
    }
    if job.end == _currentJobEnd {
      deliverCurrent(job, at: destination)
      return
    }
    // Only this core makes its jobs, each with a `Value`.
    var cursor: _BroadcastCursor<_Subscriber, _NoIndex>? = nil
    let reached = withUnsafePointer(to: job.payload as! Value) {
      walk($0, from: &cursor, end: job.end, destination.key, noDestination).first
    }
    if !reached { dropIfUnobserved(destination) }
  }

  /// Delivers a run of queued sends (and notices, and current values) on
  /// `destination`, in order, with one walk begun for the run: every send in
  /// it was made before the run was taken, so one walk of the registrations
  /// made before the latest serves them all, each joined for the
  /// registrations made before it, without the lock.
  func deliver(_ jobs: ArraySlice<_DeliveryJob>, at destination: _Destination) {
    guard jobs.count > 1 else {
      if let job = jobs.first { deliver(job, at: destination) }
      return
    }
    let end = jobs.lazy.map(\.end).filter { $0 < _currentJobEnd }.max()
    let run = end.map { storage.beginBroadcast(registeredBefore: $0) }
    for job in jobs {
      guard job.end < _currentJobEnd, let run else {
        deliver(job, at: destination)
        continue
      }
      var cursor = Optional(storage.beginBroadcast(alongside: run, registeredBefore: job.end))
      // Only this core makes its jobs, each with a `Value`.
      let reached = withUnsafePointer(to: job.payload as! Value) {
        walk($0, from: &cursor, end: job.end, destination.key, noDestination).first
      }
      if !reached { dropIfUnobserved(destination) }
    }
    if let run { storage.endBroadcast(run) }
  }

  /// A queued send that will never be delivered, since its destination's actor is
  /// gone: the destination goes; waiting notices are dropped with it.
  func drop(_ job: _DeliveryJob, at destination: _Destination) {
    if job.end == _noticeJobEnd {
      storage.withLockedState(changing: false) { _ in while notices.takeNext() != nil {} }
    } else {
      dropIfUnobserved(destination)
    }
  }

  /// Calls, with the value at `value`, every live subscription made before
  /// the one numbered `end` whose isolation is `first` or `second`, in the
  /// order they were made, from `cursor` if the send began the walk (it is
  /// used up), or from a walk begun now.
  ///
  /// - Returns: Whether it reached a subscription of each.
  @inline(__always) func walk(
    _ value: UnsafeRawPointer, from cursor: inout _BroadcastCursor<_Subscriber, _NoIndex>?,
    end: UInt64, _ first: _IsolationKey, _ second: _IsolationKey
  ) -> (first: Bool, second: Bool) {
    var reached = (first: false, second: false)
    // A walk begun in the send's critical section reaches exactly the
    // registrations made before the send, as one begun now with its end.
    let start = cursor.take() ?? storage.beginBroadcast(registeredBefore: end)
    // Other destinations' targets are not even loaded: they belong to other
    // isolations, and loading one would keep it alive here for a moment.
    // Nor is this core, which a subscription without a target holds: it is
    // alive while it sends.
    storage.forEach(
      from: start, where: { $0.pointee.isolation == first || $0.pointee.isolation == second },
      holding: self
    ) { object, subscriber in
      if subscriber.pointee.isolation == first {
        reached.first = true
      } else {
        reached.second = true
      }
      subscriber.pointee.handler(object, value, pairOffset: pairOffset)
    }
    return reached
  }

  /// After a delivery on `destination` reached no one: drops the destination if no live
  /// subscription is left on it, and notices, as any change does, whether
  /// the event lost its last live subscription (targets that died).
  func dropIfUnobserved(_ destination: _Destination) {
    // The caller runs on the destination's isolation, whose targets it may load.
    let liveObject = change(from: destination.actor) { state, garbage -> AnyObject? in
      // A destination whose actor is gone goes with its subscriptions.
      if destination.isOrphaned {
        drop(orphaned: destination, &state, &garbage)
        return nil
      }
      let liveObject = state.firstLiveObject { $0.isolation == destination.key }
      if liveObject == nil { destinations.removeAll { $0 === destination } }
      return liveObject
    }
    // The live object found is released here, after unlocking.
    withExtendedLifetime(liveObject) {}
  }
}
