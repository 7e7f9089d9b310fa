// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What queues jobs on a destination and delivers them (README.md, section 1).
protocol _DeliverySource: AnyObject {
  /// Delivers a run of its jobs, in order, on `destination`'s isolation.
  func deliver(_ jobs: UnsafeBufferPointer<_DeliveryJob>, at destination: _Destination)

  /// Learns that a run of its jobs will never be delivered: the actor is gone.
  func drop(_ jobs: UnsafeBufferPointer<_DeliveryJob>, at destination: _Destination)
}

/// A job's value, lent by a pointer, its type known again with no cast.
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
/// what it is (README.md, section 1).
@usableFromInline
struct _DeliveryJob: @unchecked Sendable {
  // @unchecked Sendable: a job goes to another isolation only to reach the
  // subscriptions made there. A `Sendable` value may; with any other, the
  // subject is not `Sendable` and shares with its subscriptions one region,
  // which at most one actor owns: the job carries the value to that actor,
  // out of reach of the sender, isolated to no actor. The delivery tests send
  // from many tasks and threads under ThreadSanitizer.

  /// What a job does when its turn comes.
  @usableFromInline
  enum Kind {
    /// For the subscriptions on the destination numbered below `end` (D5).
    case send(any _Payload, end: UInt64)
    case first(any _Payload, _Registration)
    case notices
    case broadcast(any _Payload, end: UInt64)
    case wait
  }

  /// Who delivers it, holding one reference taken here and given back in
  /// ``finish()`` (D8); unowned, so that moving a job counts no reference: a
  /// count reached through weak references is slow, and sender and deliverer,
  /// two threads, would pass it back and forth.
  unowned(unsafe) let source: any _DeliverySource
  /// Changed only by `supersede`, while the job waits.
  @usableFromInline var kind: Kind

  #if MULTICAST_INTERNAL_CHECKS
  /// Checks that the reference is given back once (D8).
  let ledger = Ledger()
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

  /// Gives back its source's reference (D8); no copy may be used after.
  func finish() {
    #if MULTICAST_INTERNAL_CHECKS
    ledger.finish()
    #endif
    Unmanaged.passUnretained(source as AnyObject).release()
  }
}

/// A place in a destination's queue: `action` runs when the queue reaches it,
/// or when the queue is abandoned (a `.wait` job: a waiter's resumption, the
/// end of a core's sends).
final class _Checkpoint: _DeliverySource, Sendable {
  let action: @Sendable () -> Void

  init(_ action: @escaping @Sendable () -> Void) { self.action = action }

  func deliver(_ jobs: UnsafeBufferPointer<_DeliveryJob>, at destination: _Destination) {
    action()  // each queues one job
  }

  func drop(_ jobs: UnsafeBufferPointer<_DeliveryJob>, at destination: _Destination) {
    action()
  }
}

#if MULTICAST_INTERNAL_CHECKS
extension _DeliveryJob {
  /// Whether a job gave back its source's reference, in checked builds; used
  /// by one thread at a time, handed over under the destination's lock.
  final class Ledger: @unchecked Sendable {
    private var isFinished = false

    func finish() {
      precondition(!isFinished, "D8: a job gave back its reference to its source twice")
      isFinished = true
    }

    deinit {
      precondition(
        isFinished, "D8: a job was let go without giving back its reference to its source")
    }
  }
}
#endif
