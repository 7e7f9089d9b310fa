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
      if finishIfAlone() || !withLockedState({ $0.next(&batch) }) { return }
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
    } while !finishIfAlone() && withLockedState({ $0.next(&batch) })
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
        guard let actor else {
          self.scheduleDrain()  // drops what waits
          return
        }
        guard self.withLockedState({ !$0.cancelDrainIfIdle() }) else { return }
        await self.drain(on: actor)
      }
    }
  }
}
