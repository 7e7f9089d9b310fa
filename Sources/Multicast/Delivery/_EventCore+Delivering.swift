// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _EventCore {
  /// Delivers a run of this core's jobs on `destination`, in order: a run of sends
  /// shares one walk, begun for the largest end, that each joins for its own (D5).
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
        payload.lend { value in
          walk(value, from: &cursor, end: end, destination.key, noDestination)
        }
      case .first(let payload, let registration):
        deliverFirst(payload, to: registration, at: destination)
      case .notices:
        tellOwner()
      case .broadcast, .wait:
        preconditionFailure("an event's core delivers a job it never queues")
      }
    }
  }

  /// Jobs never to be delivered, their actor gone (D7): the destination goes,
  /// and the notices waiting.
  func drop(_ jobs: UnsafeBufferPointer<_DeliveryJob>, at destination: _Destination) {
    if destination === ownerDestination { dropNotices() }
    drop(orphaned: [destination])
  }

  /// Marks every notice recorded as told: the owner's actor is gone, and
  /// with it the job that was to tell them (D10).
  func dropNotices() {
    storage.withReadingSection { state in
      while state.guarded.notices.takeNext() != nil {}
    }
  }

  /// Calls, with the value at `value`, in registration order, every live subscription
  /// numbered below `end` whose key is `first` or `second`, from `cursor` if the send
  /// began the walk (using it up); sweeps if the dead cost too much (storage section 5).
  @inline(__always) func walk(
    _ value: UnsafeRawPointer, from cursor: inout _LocalSend.Cursor?,
    end: UInt64, _ first: _IsolationKey, _ second: _IsolationKey
  ) {
    let start = cursor.take() ?? storage.beginBroadcast(registeredBefore: end)
    _check(start.end == end, "D5: a send's walk does not stop at the send's end")
    // Other destinations' targets are not loaded (D12), nor the core, which
    // is alive while it sends.
    let tally = storage.forEach(
      from: start, where: { $0.pointee.isolation == first || $0.pointee.isolation == second },
      holding: self
    ) { object, subscriber in
      subscriber.pointee.handler(object, value, pairOffset: pairOffset)
    }
    if _slowPath(tally.dead > 0) { sweep(after: tally) }
  }

  /// Sweeps after a walk that found the dead costing it too much.
  @inline(never)
  func sweep(after tally: _WalkTally) {
    if storage.sweep(after: tally) { didSweep(from: nil) }
  }
}
