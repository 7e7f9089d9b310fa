// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// The state of one destination's serial queue: the work waiting, and who is
/// delivering it.
///
/// It changes only through the transitions below, each made with the
/// destination's lock held; each returns what its caller must do once it has
/// unlocked (deliver, or schedule a drain), so that no user code and no task
/// creation runs under the lock.
///
/// - `isDelivering`: someone on the destination's isolation is delivering:
///   a caller that sent from there, or a drain. Whatever arrives meanwhile
///   waits, and that delivery takes it before it ends: a send made by a
///   handler goes after the delivery in progress.
/// - `isScheduled`: a drain task is scheduled on the actor and has not
///   started. At most one is.
///
/// Work leaves `waiting` in the order it arrived, in batches: a deliverer
/// swaps the whole array out and hands the emptied one back, so that batches
/// change hands without allocating.
struct _DeliveryState {
  /// Work arrived and not yet taken for delivery, oldest first.
  private(set) var waiting: [_DeliveryJob] = []
  /// An empty array with room, kept between deliveries.
  private var spare: [_DeliveryJob] = []
  private(set) var isScheduled = false
  private(set) var isDelivering = false

  /// What the caller of ``arrive(_:isHere:taking:)`` must do.
  enum Arrival: Equatable {
    /// Deliver the job now, itself (it was not queued: nothing waited);
    /// then ``next(_:)``.
    case deliverDirectly
    /// Deliver the batch now (what waited, then the job); then ``next(_:)``.
    case deliverBatch
    /// Schedule a drain task on the destination's actor.
    case scheduleDrain
    /// Nothing: the delivery in progress, or the drain scheduled, takes it.
    case none
  }

  /// Work arrives, from the destination's isolation (`isHere`) or another.
  ///
  /// A caller on the destination's isolation delivers at once unless a
  /// delivery is in progress there; any other caller queues its job and,
  /// when no one is delivering or scheduled to, must schedule a drain.
  mutating func arrive(
    _ job: () -> _DeliveryJob, isHere: Bool, taking batch: inout [_DeliveryJob]
  ) -> Arrival {
    if isDelivering {
      waiting.append(job())
      return .none
    }
    if isHere {
      isDelivering = true
      if waiting.isEmpty { return .deliverDirectly }
      waiting.append(job())
      take(into: &batch)
      return .deliverBatch
    }
    waiting.append(job())
    if isScheduled { return .none }
    isScheduled = true
    return .scheduleDrain
  }

  /// A caller on the destination's isolation with nothing to send takes
  /// what waits, unless someone is delivering.
  ///
  /// - Returns: Whether `batch` holds work to deliver (then ``next(_:)``).
  mutating func claim(taking batch: inout [_DeliveryJob]) -> Bool {
    guard !isDelivering, !waiting.isEmpty else { return false }
    isDelivering = true
    take(into: &batch)
    return true
  }

  /// The scheduled drain starts, on the actor: it takes what waits, unless a
  /// caller there delivered everything meanwhile, or is delivering.
  ///
  /// - Returns: Whether `batch` holds work to deliver (then ``next(_:)``).
  mutating func startDrain(taking batch: inout [_DeliveryJob]) -> Bool {
    isScheduled = false
    return claim(taking: &batch)
  }

  /// The scheduled drain, about to hop to its actor, finds nothing to do (a
  /// caller on the actor delivered everything meanwhile) and ends.
  ///
  /// - Returns: Whether it ended; if not, it goes on to ``startDrain(taking:)``.
  mutating func cancelDrainIfIdle() -> Bool {
    guard waiting.isEmpty, !isDelivering else { return false }
    isScheduled = false
    return true
  }

  /// A deliverer hands back its delivered (emptied) batch and takes what
  /// arrived meanwhile, or ends the delivery when nothing did.
  ///
  /// - Returns: Whether `batch` holds more work to deliver.
  mutating func next(_ batch: inout [_DeliveryJob]) -> Bool {
    precondition(isDelivering, "a delivery ended that had not started")
    precondition(batch.isEmpty, "a batch was handed back before it was delivered")
    if waiting.isEmpty {
      isDelivering = false
      if spare.capacity < batch.capacity { swap(&spare, &batch) }
      return false
    }
    swap(&batch, &waiting)
    return true
  }

  /// A deliverer stops before the end of its batch (its time is up, or only
  /// an `await` can deliver what comes next): the rest goes back in front of
  /// what waits, and the actor is given back.
  ///
  /// - Returns: Whether the caller must schedule a drain for what is left.
  mutating func giveBack(_ rest: ArraySlice<_DeliveryJob>) -> Bool {
    precondition(isDelivering, "a delivery gave back a destination it did not hold")
    waiting.insert(contentsOf: rest, at: 0)
    isDelivering = false
    guard !waiting.isEmpty, !isScheduled else { return false }
    isScheduled = true
    return true
  }

  /// The destination's actor is gone: everything waiting is taken, to be
  /// dropped, and nothing is scheduled any more.
  mutating func abandon(taking batch: inout [_DeliveryJob]) {
    isScheduled = false
    swap(&batch, &waiting)
  }

  /// Checks the state's invariants; the destination calls it after every
  /// transition when built with `MULTICAST_INTERNAL_CHECKS`.
  ///
  /// - Nothing waits unless someone will deliver it: a delivery in progress
  ///   takes it before it ends, or a scheduled drain does.
  /// - The spare array is empty: batches change hands through it.
  func checkInvariants() {
    precondition(
      waiting.isEmpty || isDelivering || isScheduled,
      "work waits on a destination with no delivery in progress and no drain scheduled")
    precondition(spare.isEmpty, "the spare batch of a destination holds work")
  }

  private mutating func take(into batch: inout [_DeliveryJob]) {
    swap(&batch, &waiting)
    swap(&waiting, &spare)
  }
}
