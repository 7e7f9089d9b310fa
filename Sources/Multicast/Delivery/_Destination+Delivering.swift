// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

// Delivering a destination's queue: on the caller's isolation, after an
// arrival or a claim that said to deliver, or by a drain task on the actor.

extension _Destination {
  /// Delivers everything queued, on the caller's isolation, which is this
  /// destination's; call it after a send it claimed, when work arrived
  /// meanwhile.
  func deliverQueued() {
    var batch: [_DeliveryJob] = []
    deliverQueued(&batch)
  }

  /// Delivers `batch`, then everything queued behind it, on the caller's
  /// isolation, which is this destination's; call it after an arrival or a
  /// claim that said to deliver.
  func deliverQueued(_ batch: inout [_DeliveryJob]) {
    while true {
      if !batch.isEmpty {
        deliver(batch)
        batch.removeAll()
      }
      if finishIfOnlyDelivering() || !withLockedState({ $0.next(&batch) }) { return }
    }
  }

  /// Delivers `batch` in order, handing each run of one source's jobs to
  /// that source at once.
  private func deliver(_ batch: [_DeliveryJob]) {
    var start = batch.startIndex
    while start < batch.endIndex {
      let source = batch[start].source
      var end = start + 1
      while end < batch.endIndex, batch[end].source === source { end += 1 }
      source.deliver(batch[start..<end], at: self)
      for job in batch[start..<end] { job.finish() }
      start = end
    }
  }

  /// How long a drain delivers before it gives its actor back to other work.
  static let drainBudget: UInt64 = 500_000  // nanoseconds

  /// Delivers what waits, on the destination's actor, `actor`: what a
  /// scheduled drain task runs.
  ///
  /// After about ``drainBudget`` of work, between two batches, it gives the
  /// actor back: a new drain task is scheduled for what is left, behind the
  /// actor's other work.
  private func drain(on actor: isolated (any Actor)?) {
    var batch: [_DeliveryJob] = []
    guard withLockedState({ $0.startDrain(taking: &batch) }) else { return }
    let deadline = _multicast_monotonic_nanoseconds() + Self.drainBudget
    repeat {
      deliver(batch)
      batch.removeAll()
      if _multicast_monotonic_nanoseconds() >= deadline {
        if withLockedState({ $0.pause() }) { scheduleDrain() }
        return
      }
    } while !finishIfOnlyDelivering() && withLockedState({ $0.next(&batch) })
  }

  /// Delivers what waits on `actor`, an actor other than the main actor,
  /// as ``drain(on:)`` does, while no one lets the actor go.
  ///
  /// Running on an actor needs a reference to it, which the drain task
  /// holds; so the actor's own weak references cannot tell when its last
  /// owner lets it go. Its strong reference count can: `references` is the
  /// count the task saw before it hopped here, and before each job the drain
  /// stops, the rest of its work put back, if the count fell below it. The
  /// task then lets the actor go before it schedules the next drain, which
  /// finds the actor gone if that was its last owner, and drops what waits.
  ///
  /// - Returns: Whether the caller must schedule a drain for what is left,
  ///   after letting the actor go.
  private func drain(on actor: isolated any Actor, heldBy references: UInt) -> Bool {
    var batch: [_DeliveryJob] = []
    guard withLockedState({ $0.startDrain(taking: &batch) }) else { return false }
    let deadline = _multicast_monotonic_nanoseconds() + Self.drainBudget
    repeat {
      for index in batch.indices {
        if Self.strongReferences(to: actor) < references {
          return withLockedState { $0.pause(returning: Array(batch[index...])) }
        }
        let job = batch[index]
        job.source.deliver(job, at: self)
        job.finish()
      }
      batch.removeAll()
      if _multicast_monotonic_nanoseconds() >= deadline {
        return withLockedState { $0.pause() }
      }
    } while !finishIfOnlyDelivering() && withLockedState({ $0.next(&batch) })
    return false
  }

  /// The number of strong references to `actor`, counting the caller's.
  ///
  /// Compared only with another count made by the same code (the drain task
  /// and the drain both call it with the actor they hold, borrowed), so that
  /// whatever references a build's calling conventions add cancel out.
  @inline(never)
  private static func strongReferences(to actor: any Actor) -> UInt {
    _getRetainCount(actor)
  }

  /// Schedules a task that drains the queue on the destination's actor; drops
  /// what waits if the actor is gone.
  func scheduleDrain() {
    guard actorIdentity != nil else {
      Task { self.drain(on: nil) }
      return
    }
    guard let actor else {
      var batch: [_DeliveryJob] = []
      withLockedState { $0.abandon(taking: &batch) }
      for job in batch {
        job.source.drop(job, at: self)
        job.finish()
      }
      return
    }
    if isMainActor {
      Task { @MainActor in self.drain(on: MainActor.shared) }
    } else {
      // The task holds the actor weakly until it runs, and lets it go at
      // once if a caller on the actor delivered everything meanwhile: a
      // queue keeps no actor alive longer than its own hop to it. (It holds
      // the destination, and so the work queued there.)
      Task { [weak actor] in
        let isPaused: Bool
        do {
          guard let actor else {
            self.scheduleDrain()  // drops what waits
            return
          }
          guard self.withLockedState({ !$0.cancelDrainIfIdle() }) else { return }
          isPaused = await self.drain(on: actor, heldBy: Self.strongReferences(to: actor))
        }
        // The actor is let go first (the scope above has ended).
        if isPaused { self.scheduleDrain() }
      }
    }
  }
}
