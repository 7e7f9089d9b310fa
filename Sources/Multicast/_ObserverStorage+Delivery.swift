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

/// A broadcast bound for the actor its body is isolated to, waiting its
/// turn: which registrations it reaches, and what it does with each observer.
///
/// The body is `@isolated(any)`: it carries its actor, which the queue is
/// chosen by, and it can only be awaited. Kept in a struct, not as a generic
/// argument, since function types like it need a newer runtime as generic
/// arguments; the struct's layout needs no metadata of the function type.
@usableFromInline
struct _ActorDelivery<Observer>: Sendable {
  @usableFromInline let end: UInt64
  @usableFromInline let body: @isolated(any) @Sendable (Observer) -> Void

  @inlinable
  init(end: UInt64, body: @escaping @isolated(any) @Sendable (Observer) -> Void) {
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

extension _ObserverStorage {
  /// The sequence number of the next registration, and the queue of
  /// broadcasts bound for `actor`, made on first use.
  ///
  /// - Complexity: O(q), where q is the number of actors this storage's
  ///   owner has broadcast to.
  @inlinable
  func actorQueue<Job>(
    for actor: (any Actor)?, of _: Job.Type
  ) -> (end: UInt64, queue: _DeliveryQueue<Job>) {
    withLockedState { state in
      for slot in state.actorQueues where slot.actor === actor {
        // Only this function makes these queues, with its owner's job type.
        return (state.nextSequence, unsafeDowncast(slot.queue, to: _DeliveryQueue<Job>.self))
      }
      let queue = _DeliveryQueue<Job>()
      state.actorQueues.append((actor, queue))
      return (state.nextSequence, queue)
    }
  }
}
