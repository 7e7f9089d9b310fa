// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Something that queues work on a destination and delivers it there when its
/// turn comes: an event's core, a multicast delegate's broadcasts, a wait.
protocol _DeliverySource: AnyObject {
  /// Delivers `job`, which this source queued on `destination`, on that
  /// destination's isolation.
  func deliver(_ job: _DeliveryJob, at destination: _Destination)

  /// Learns that `job` will never be delivered: the destination's actor is
  /// gone.
  func drop(_ job: _DeliveryJob, at destination: _Destination)
}

/// One piece of work waiting its turn on a destination: who delivers it, and
/// what with.
///
/// The payload is type-erased (`Any`), so that one queue holds every
/// subject's and every face's work, in the order it was queued, and the
/// queue is compiled once in this module. A value of up to three words fits
/// in the `Any` without an allocation.
struct _DeliveryJob: @unchecked Sendable {
  // @unchecked Sendable: a job goes to another isolation only to reach the
  // subscriptions made there. With a `Sendable` value that is what the types
  // promise. With any other value the subject is not `Sendable`, so it and
  // its subscriptions share one region, which at most one actor owns: the job
  // carries the value to that actor, and the sender, isolated to no actor,
  // cannot reach the value concurrently. The delivery tests send from many
  // tasks and threads under ThreadSanitizer.

  /// Who delivers it.
  let source: any _DeliverySource
  /// The value sent, or the broadcast's body.
  let payload: Any
  /// The registrations a send reaches are those numbered below `end`: the
  /// ones made before it was sent.
  let end: UInt64

  init(_ source: any _DeliverySource, payload: Any, end: UInt64) {
    self.source = source
    self.payload = payload
    self.end = end
  }
}
