// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Something that queues jobs on a destination and delivers them there when
/// their turn comes: an event's core, a multicast delegate, a waiter.
protocol _DeliverySource: AnyObject {
  /// Delivers `jobs`, consecutive in the queue and all this source's, in
  /// order, on `destination`'s isolation.
  func deliver(_ jobs: UnsafeBufferPointer<_DeliveryJob>, at destination: _Destination)

  /// Learns that `jobs`, consecutive in the queue and all this source's,
  /// will never be delivered: the destination's actor is gone.
  func drop(_ jobs: UnsafeBufferPointer<_DeliveryJob>, at destination: _Destination)
}

/// A value lent by a pointer to the handlers that take it: its type is
/// erased in a job and known again, with no cast, where it is lent.
@usableFromInline
protocol _Payload {
  /// Calls `body` with a pointer to the value.
  func lend(_ body: (UnsafeRawPointer) -> Void)
}

/// A value of type `Value`, as a job carries it.
@usableFromInline
struct _Value<Value>: _Payload {
  @usableFromInline let value: Value

  @inlinable init(value: Value) { self.value = value }

  @usableFromInline func lend(_ body: (UnsafeRawPointer) -> Void) {
    withUnsafePointer(to: value) { body($0) }
  }
}

/// One piece of work waiting its turn on a destination: who delivers it, and
/// what it is.
///
/// One queue holds every subject's and every face's jobs, in the order they
/// were queued: the kinds below are all it holds.
@usableFromInline
struct _DeliveryJob: @unchecked Sendable {
  // @unchecked Sendable: a job goes to another isolation only to reach the
  // subscriptions made there. With a `Sendable` value that is what the types
  // promise. With any other value the subject is not `Sendable`, so it and
  // its subscriptions share one region, which at most one actor owns: the job
  // carries the value to that actor, and the sender, isolated to no actor,
  // cannot reach the value concurrently. The delivery tests send from many
  // tasks and threads under ThreadSanitizer.

  /// What a job does when its turn comes.
  @usableFromInline
  enum Kind {
    /// An event's value, for its subscriptions on the destination numbered
    /// below `end`: those made before it was sent (D5).
    case send(any _Payload, end: UInt64)
    /// An event's latest value, the first value of the one subscription
    /// `registration`.
    case first(any _Payload, _Registration)
    /// The event's owner is told its first- and last-observer notices.
    case notices
    /// A multicast delegate's queued broadcast (a `_QueuedBroadcast`), for
    /// its observers registered before `end`.
    case broadcast(any _Payload, end: UInt64)
    /// A caller of `waitForDeliveries()` resumes: what was queued before it
    /// has been delivered.
    case wait
  }

  /// Who delivers it, kept alive by one reference that each job made takes
  /// here and gives back in ``finish()``, exactly once (D8).
  ///
  /// Unowned, so that moving a job through the queue counts no references:
  /// a source reached through weak references counts slowly, and sender and
  /// deliverer are two threads that would pass its count back and forth.
  unowned(unsafe) let source: any _DeliverySource
  /// Replaced only by a newer value of a coalescing event, while the job
  /// waits (``_DeliveryState/arrive(_:isHere:thread:taking:superseding:_:)``).
  @usableFromInline var kind: Kind

  #if MULTICAST_INTERNAL_CHECKS
  /// Shared by the job's copies: checks that the reference is given back
  /// exactly once (D8).
  let ledger = _JobLedger()
  #endif

  init(_ source: any _DeliverySource, _ kind: Kind) {
    _ = Unmanaged.passUnretained(source as AnyObject).retain()
    self.source = source
    self.kind = kind
  }

  /// Has its source deliver it alone, on `destination`'s isolation.
  func deliver(at destination: _Destination) {
    withUnsafePointer(to: self) {
      source.deliver(UnsafeBufferPointer(start: $0, count: 1), at: destination)
    }
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
