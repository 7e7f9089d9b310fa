// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

extension _Destination {
  /// Delivers everything queued, on this destination's isolation, after a
  /// send it claimed when work arrived meanwhile.
  func deliverQueued() {
    var batch: [_DeliveryJob] = []
    deliverQueued(&batch)
  }

  /// Delivers `batch`, then everything queued behind it, on this
  /// destination's isolation, after an arrival or a claim that said to.
  func deliverQueued(_ batch: inout [_DeliveryJob]) {
    while true {
      if !batch.isEmpty {
        deliver(batch)
        batch.removeAll()
      }
      if finishIfOnlyDelivering() || !withLockedState({ $0.next(&batch) }) { return }
    }
  }

  /// Delivers `batch` in order, each run of one source's jobs at once.
  private func deliver(_ batch: [_DeliveryJob]) {
    #if DEBUG || MULTICAST_INTERNAL_CHECKS
    checkDelivering()
    #endif
    // Jobs are read in place: a copy would copy each payload too.
    batch.withUnsafeBufferPointer { jobs in
      var start = jobs.startIndex
      while start < jobs.endIndex {
        let source = jobs[start].source
        var end = start + 1
        while end < jobs.endIndex, jobs[end].source === source { end += 1 }
        source.deliver(UnsafeBufferPointer(rebasing: jobs[start..<end]), at: self)
        for index in start..<end { jobs[index].finish() }
        start = end
      }
    }
  }

  /// How long a drain delivers before it gives its actor back (D9), in
  /// nanoseconds: short enough that other work on the actor waits little,
  /// long enough that hops stay rare (Performance, "Across actors").
  static let drainBudget: UInt64 = 500_000

  /// What a drain task runs on the destination's actor, `actor`.
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

  /// ``drain(on:)`` for a mortal actor, which stops, its rest put back,
  /// once the actor's strong count falls below `references`, the count
  /// the task saw: the task's own reference hides a last owner's release
  /// from weak references (D7, D8).
  ///
  /// - Returns: Whether the caller must schedule a drain for what is left,
  ///   after letting the actor go.
  private func drain(on actor: isolated any Actor, heldBy references: UInt) -> Bool {
    var batch: [_DeliveryJob] = []
    guard withLockedState({ $0.startDrain(taking: &batch) }) else { return false }
    #if DEBUG || MULTICAST_INTERNAL_CHECKS
    checkDelivering()
    #endif
    let deadline = _multicast_monotonic_nanoseconds() + Self.drainBudget
    repeat {
      for index in batch.indices {
        if Self.strongReferences(to: actor) < references {
          return withLockedState { $0.pause(returning: Array(batch[index...])) }
        }
        batch[index].deliver(at: self)
        batch[index].finish()
      }
      batch.removeAll()
      if _multicast_monotonic_nanoseconds() >= deadline {
        return withLockedState { $0.pause() }
      }
    } while !finishIfOnlyDelivering() && withLockedState({ $0.next(&batch) })
    return false
  }

  /// The number of strong references to `actor`, counting the caller's;
  /// compared only with a count made by this same function, so that what a
  /// build's calling conventions add cancels out.
  @inline(never)
  private static func strongReferences(to actor: any Actor) -> UInt {
    _getRetainCount(actor)
  }

  /// Schedules a task that drains the queue on the destination's actor; drops
  /// what waits if the actor is gone (D7).
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
      // Weak until the task runs, and let go before a next drain (D8).
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
        if isPaused { self.scheduleDrain() }
      }
    }
  }
}
