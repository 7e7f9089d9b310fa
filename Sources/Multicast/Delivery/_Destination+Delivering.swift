// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

extension _Destination {
  /// Delivers `batch`, then what waits, as the one deliverer, until nothing is
  /// left or it pauses for a drain (D9).
  func deliverQueued(_ batch: inout [_DeliveryJob]) {
    var deadline = UInt64.max
    while true {
      if !batch.isEmpty {
        deliver(batch)
        batch.removeAll(keepingCapacity: true)
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

  /// Calls `body` with each run of one source's jobs in `batch`, read in place
  /// (a copy would copy each payload), then finishes them (D8).
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

  /// How long a deliverer goes on past what it owes (D9), in nanoseconds: short
  /// enough that other work waits little, long enough that hops stay rare.
  static let drainBudget: UInt64 = 500_000

  /// What a drain task runs on the destination's actor, `actor`.
  private func drain(on actor: isolated (any Actor)?) {
    var batch: [_DeliveryJob] = []
    guard withLockedState({ $0.startDrain(taking: &batch, thread: _multicast_thread_number()) })
    else { return }
    deliverQueued(&batch)
  }

  /// ``drain(on:)`` for a mortal actor, job by job (README.md, section 3); true
  /// if the caller must schedule a drain, after letting the actor go.
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
      batch.removeAll(keepingCapacity: true)
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

  /// The actor's strong reference count, compared only with another reading
  /// by this function, so that what calling conventions add cancels out.
  @inline(never)
  private static func strongReferences(to actor: any Actor) -> UInt {
    _getRetainCount(actor)
  }

  /// Schedules a drain task; or, if the actor is gone, abandons what waits
  /// (D7), telling each source but `spared` its runs; true if it is gone.
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
