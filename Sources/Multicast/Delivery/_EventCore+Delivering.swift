// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _EventCore {
  /// Delivers a queued send, current value or notice on `destination`.
  func deliver(_ job: _DeliveryJob, at destination: _Destination) {
    if job.end == _noticeJobEnd {
      tellOwner()
      return
    }
    if job.end == _currentJobEnd {
      deliverCurrent(job, at: destination)
      return
    }
    var cursor: _SubscriberCursor? = nil
    // Only this core makes its jobs, each with a `Value`.
    let reached = withUnsafePointer(to: job.payload as! Value) {
      walk($0, from: &cursor, end: job.end, destination.key, noDestination).first
    }
    if !reached { dropIfUnobserved(destination) }
  }

  /// Delivers a run of this core's jobs on `destination`, in order, with one
  /// walk begun for the run: each send joins it, without the lock, for the
  /// registrations made before that send (D5).
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

  /// A queued job that will never be delivered, its destination's actor
  /// gone (D7): the destination goes; waiting notices are dropped.
  func drop(_ job: _DeliveryJob, at destination: _Destination) {
    if job.end == _noticeJobEnd {
      storage.withLockedState(changing: false) { state in
        while state.guarded.notices.takeNext() != nil {}
      }
    } else {
      dropIfUnobserved(destination)
    }
  }

  /// Calls, with the value at `value`, in registration order, every live
  /// subscription numbered below `end` whose destination's key is `first`
  /// or `second`; from `cursor` if the send began the walk (it is used up).
  ///
  /// - Returns: Whether it reached a subscription of each.
  @inline(__always) func walk(
    _ value: UnsafeRawPointer, from cursor: inout _SubscriberCursor?,
    end: UInt64, _ first: _IsolationKey, _ second: _IsolationKey
  ) -> (first: Bool, second: Bool) {
    var reached = (first: false, second: false)
    let start = cursor.take() ?? storage.beginBroadcast(registeredBefore: end)
    #if MULTICAST_INTERNAL_CHECKS
    precondition(start.end == end, "D5: a send's walk does not stop at the send's end")
    #endif
    // Other destinations' targets are not loaded (D12), nor the core, which
    // is alive while it sends.
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

  /// After a delivery on `destination` reached no one: drops it from
  /// `destinations` if no live subscription is left there, or with its
  /// subscriptions if its actor is gone (D6, D7), and records, as any
  /// change does, whether the event lost its last live subscription.
  func dropIfUnobserved(_ destination: _Destination) {
    // The caller runs on the destination's isolation, whose targets may load,
    // or the destination is orphaned, and none is loaded.
    let liveObject = change(from: destination.actor) { state, garbage -> AnyObject? in
      if destination.isOrphaned {
        drop(orphaned: destination, &state, &garbage)
        return nil
      }
      let liveObject = state.firstLiveObject { $0.isolation == destination.key }
      if liveObject == nil { state.guarded.destinations.removeAll { $0 === destination } }
      return liveObject
    }
    withExtendedLifetime(liveObject) {}  // released after unlocking
  }
}
