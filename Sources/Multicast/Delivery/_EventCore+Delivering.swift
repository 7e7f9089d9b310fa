// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _EventCore {
  /// Delivers a run of this core's jobs on `destination`, in order. A run
  /// of sends shares one walk, begun with the lock: each send joins it,
  /// without the lock, for the registrations made before it (D5).
  func deliver(_ jobs: UnsafeBufferPointer<_DeliveryJob>, at destination: _Destination) {
    var runEnd: UInt64?
    if jobs.count > 1 {
      for job in jobs {
        if case .send(_, let end) = job.kind { runEnd = Swift.max(runEnd ?? 0, end) }
      }
    }
    let run = runEnd.map { storage.beginBroadcast(registeredBefore: $0) }
    defer { if let run { storage.endBroadcast(run) } }
    for job in jobs {
      switch job.kind {
      case .send(let payload, let end):
        var cursor = run.map { storage.beginBroadcast(alongside: $0, registeredBefore: end) }
        var reached = false
        payload.lend { value in
          reached = walk(value, from: &cursor, end: end, destination.key, noDestination).first
        }
        if !reached { dropIfUnobserved(destination) }
      case .first(let payload, let registration):
        deliverFirst(payload, to: registration, at: destination)
      case .notices:
        tellOwner()
      case .broadcast, .wait:
        preconditionFailure("an event's core delivers a job it never queues")
      }
    }
  }

  /// A queued job that will never be delivered, its destination's actor
  /// gone (D7): the destination goes; waiting notices are dropped.
  func drop(_ job: _DeliveryJob, at destination: _Destination) {
    if case .notices = job.kind {
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
