// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Which queue a broadcast handed to another actor joins: one per actor and
/// kind of broadcast.
struct _DeliveryKey: Hashable {
  let actor: ObjectIdentifier
  let job: ObjectIdentifier
}

/// A broadcast bound for another actor, waiting its turn: which
/// registrations it reaches (those made before the one numbered `end`, as
/// when it was made) and what it does with each observer.
struct _Delivery<Body: Sendable>: Sendable {
  let end: UInt64
  let body: Body
}

extension _ObserverStorage {
  /// The sequence number of the next registration, and the queue of
  /// broadcasts of kind `Job` bound for `actor`, made on first use: what a
  /// broadcast handed to another actor needs, read in one critical section.
  ///
  /// - Complexity: O(1) on average.
  func deliveryQueue<Job>(
    for actor: any Actor, of _: Job.Type
  ) -> (end: UInt64, queue: _DeliveryQueue<Job>) {
    let key = _DeliveryKey(actor: ObjectIdentifier(actor), job: ObjectIdentifier(Job.self))
    return withLockedState { state in
      if let queue = state.deliveryQueues[key] {
        // Only this function files queues, each under its own job type.
        return (state.nextSequence, unsafeDowncast(queue, to: _DeliveryQueue<Job>.self))
      }
      let queue = _DeliveryQueue<Job>()
      state.deliveryQueues[key] = queue
      return (state.nextSequence, queue)
    }
  }
}
