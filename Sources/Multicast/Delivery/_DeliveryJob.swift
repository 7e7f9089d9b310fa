// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Something that queues work on a destination and delivers it there when its
/// turn comes: an event's core, a multicast delegate's broadcasts, a wait.
protocol _DeliverySource: AnyObject {
  /// Delivers `job`, which this source queued on `destination`, on that
  /// destination's isolation.
  func deliver(_ job: _DeliveryJob, at destination: _Destination)

  /// Delivers `jobs`, consecutive in the queue and all this source's, in
  /// order: one at a time unless the source can do better.
  func deliver(_ jobs: ArraySlice<_DeliveryJob>, at destination: _Destination)

  /// Learns that `job` will never be delivered: the destination's actor is
  /// gone.
  func drop(_ job: _DeliveryJob, at destination: _Destination)
}

extension _DeliverySource {
  func deliver(_ jobs: ArraySlice<_DeliveryJob>, at destination: _Destination) {
    for job in jobs { deliver(job, at: destination) }
  }
}

/// One piece of work waiting its turn on a destination: who delivers it, and
/// what with.
///
/// The payload is type-erased (`Any`), so that one queue holds every
/// subject's and every face's work, in the order it was queued, and the
/// queue is compiled once in this module. A value of up to three words fits
/// in the `Any` without an allocation.
@usableFromInline
struct _DeliveryJob: @unchecked Sendable {
  // @unchecked Sendable: a job goes to another isolation only to reach the
  // subscriptions made there. With a `Sendable` value that is what the types
  // promise. With any other value the subject is not `Sendable`, so it and
  // its subscriptions share one region, which at most one actor owns: the job
  // carries the value to that actor, and the sender, isolated to no actor,
  // cannot reach the value concurrently. The delivery tests send from many
  // tasks and threads under ThreadSanitizer.

  /// Who delivers it, kept alive by one reference that each job made takes
  /// here and gives back in ``finish()``, exactly once (D8).
  ///
  /// Unowned, so that copying a job through the queue counts no references:
  /// a source reached through weak references counts slowly, and sender and
  /// deliverer are two threads that would pass its count back and forth.
  unowned(unsafe) let source: any _DeliverySource
  /// The value sent, or the broadcast's body.
  @usableFromInline let payload: Any
  /// The registrations a send reaches are those numbered below `end`: the
  /// ones made before it was sent.
  @usableFromInline let end: UInt64

  #if MULTICAST_INTERNAL_CHECKS
  /// Shared by the job's copies: checks that the reference is given back
  /// exactly once (D8).
  let ledger = _JobLedger()
  #endif

  init(_ source: any _DeliverySource, payload: Any, end: UInt64) {
    _ = Unmanaged.passUnretained(source as AnyObject).retain()
    self.source = source
    self.payload = payload
    self.end = end
  }

  /// Gives back the job's reference to its source, once the job is
  /// delivered or dropped; no copy of the job may be used after.
  func finish() {
    #if MULTICAST_INTERNAL_CHECKS
    ledger.finish()
    #endif
    Unmanaged.passUnretained(source as AnyObject).release()
  }
}

#if MULTICAST_INTERNAL_CHECKS
/// Whether a job has given back its reference to its source, in checked
/// builds.
///
/// A job's copies are used by one thread at a time,
/// handed over under the destination's lock.
final class _JobLedger: @unchecked Sendable {
  private var isFinished = false

  func finish() {
    precondition(!isFinished, "D8: a job gave back its reference to its source twice")
    isFinished = true
  }

  deinit {
    precondition(isFinished, "D8: a job was let go without giving back its reference to its source")
  }
}
#endif
