// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

extension _Destination {
  /// Delivers `batch`, then what waits behind it, as this destination's one
  /// deliverer, on its isolation: until nothing is left or, once the jobs
  /// it owes (those up to `owed`) are delivered, until `drainBudget` has
  /// passed; then it hands what is left to a drain (D9).
  func deliverQueued(_ batch: inout [_DeliveryJob]) {
    var deadline = UInt64.max
    while true {
      if !batch.isEmpty {
        deliver(batch)
        batch.removeAll()
      }
      if finishIfOnlyDelivering() { return }
      let isPastBudget = deadline != .max && _multicast_monotonic_nanoseconds() >= deadline
      switch withLockedState({ $0.next(&batch, isPastBudget: isPastBudget) }) {
      case .deliver(let isOwed):
        if !isOwed && deadline == .max {
          deadline = _multicast_monotonic_nanoseconds() + Self.drainBudget
        }
      case .finish, .pauseScheduled:
        return
      case .pause:
        scheduleDrain()
        return
      }
    }
  }

  /// Delivers `batch` in order, each run of one source's jobs at once.
  private func deliver(_ batch: [_DeliveryJob]) {
    checkDelivering()
    Self.forEachRun(of: batch) { source, jobs in source.deliver(jobs, at: self) }
  }

  /// Calls `body` with each run of one source's jobs in `batch`, in order,
  /// then finishes them (D8).
  ///
  /// Jobs are read in place: a copy would copy
  /// each payload too.
  private static func forEachRun(
    of batch: [_DeliveryJob],
    _ body: (any _DeliverySource, UnsafeBufferPointer<_DeliveryJob>) -> Void
  ) {
    batch.withUnsafeBufferPointer { jobs in
      var start = jobs.startIndex
      while start < jobs.endIndex {
        let source = jobs[start].source
        var end = start + 1
        while end < jobs.endIndex, jobs[end].source === source { end += 1 }
        body(source, UnsafeBufferPointer(rebasing: jobs[start..<end]))
        for index in start..<end { jobs[index].finish() }
        start = end
      }
    }
  }

  /// How long a deliverer delivers beyond what it owes before it gives
  /// its actor and its thread back (D9), in nanoseconds: short enough that
  /// other work waits little, long enough that hops stay rare (Performance,
  /// "Across actors").
  static let drainBudget: UInt64 = 500_000

  /// What a drain task runs on the destination's actor, `actor`.
  private func drain(on actor: isolated (any Actor)?) {
    var batch: [_DeliveryJob] = []
    guard withLockedState({ $0.startDrain(taking: &batch, thread: _multicast_thread_number()) })
    else { return }
    deliverQueued(&batch)
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
    guard withLockedState({ $0.startDrain(taking: &batch, thread: _multicast_thread_number()) })
    else { return false }
    checkDelivering()
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
      if finishIfOnlyDelivering() { return false }
      switch withLockedState({ $0.next(&batch, isPastBudget: false) }) {
      case .deliver: continue
      case .finish, .pauseScheduled: return false
      case .pause: return true
      }
    } while true
  }

  /// The number of strong references to `actor`, counting the caller's;
  /// compared only with a count made by this same function, so that what a
  /// build's calling conventions add cancels out.
  @inline(never)
  private static func strongReferences(to actor: any Actor) -> UInt {
    _getRetainCount(actor)
  }

  /// Schedules a task that drains the queue on the destination's actor; or,
  /// if the actor is gone, abandons what waits (D7): each job's source but
  /// `spared` is told, in runs.
  ///
  /// - Returns: Whether the actor is gone.
  @discardableResult
  func scheduleDrain(sparing spared: AnyObject? = nil) -> Bool {
    guard actorIdentity != nil else {
      if self !== Self.unisolated { noteDraining() }
      Task { self.drain(on: nil) }
      return false
    }
    guard let actor else {
      var batch: [_DeliveryJob] = []
      withLockedState { $0.abandon(taking: &batch) }
      Self.forEachRun(of: batch) { source, jobs in
        if source !== spared { source.drop(jobs, at: self) }
      }
      return true
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
    return false
  }
}
