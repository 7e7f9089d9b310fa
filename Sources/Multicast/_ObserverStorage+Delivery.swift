// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A broadcast bound for the main actor, waiting its turn: which
/// registrations it reaches (those made before the one numbered `end`, as
/// when it was made) and what it does with each observer.
///
/// The body's type is spelled with `Observer`, as in the method that takes
/// it, so that storing it needs no reabstraction thunk: a body stored as a
/// fully generic value would cost a second allocation per broadcast.
@usableFromInline
struct _MainActorDelivery<Observer>: Sendable {
  @usableFromInline let end: UInt64
  @usableFromInline let body: @MainActor @Sendable (Observer) -> Void

  @inlinable
  init(end: UInt64, body: @escaping @MainActor @Sendable (Observer) -> Void) {
    self.end = end
    self.body = body
  }
}

extension _ObserverStorage {
  /// The sequence number of the next registration, and the queue of
  /// broadcasts bound for the main actor, made on first use: what a broadcast
  /// handed to the main actor needs, read in one critical section.
  ///
  /// Every queue of one storage has the same job type: its owner's.
  ///
  /// - Complexity: O(1).
  @inlinable
  func mainActorQueue<Job>(of _: Job.Type) -> (end: UInt64, queue: _DeliveryQueue<Job>) {
    withLockedState { state in
      if let queue = state.mainActorQueue {
        // Only this function makes the queue, with its owner's one job type.
        return (state.nextSequence, unsafeDowncast(queue, to: _DeliveryQueue<Job>.self))
      }
      let queue = _DeliveryQueue<Job>()
      state.mainActorQueue = queue
      return (state.nextSequence, queue)
    }
  }
}
