// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

extension _Destination {
  /// Work arrives from `isolation`; `job` is made only if it is queued.
  func arrive(
    _ job: () -> _DeliveryJob, from isolation: (any Actor)?, taking batch: inout [_DeliveryJob],
    keepingAlive loaded: inout [any Actor]?
  ) -> _DeliveryState.Arrival {
    arrive(job, from: isolation, taking: &batch, keepingAlive: &loaded, superseding: false) { _ in
      false
    }
  }

  /// ``arrive(_:from:taking:keepingAlive:)`` of a coalescing event's work
  /// (README.md, section 4).
  @inline(never)
  func arrive(
    _ job: () -> _DeliveryJob, from isolation: (any Actor)?, taking batch: inout [_DeliveryJob],
    keepingAlive loaded: inout [any Actor]?, superseding supersede: (inout _DeliveryJob) -> Bool
  ) -> _DeliveryState.Arrival {
    arrive(
      job, from: isolation, taking: &batch, keepingAlive: &loaded, superseding: true, supersede)
  }

  @inline(__always)
  private func arrive(
    _ job: () -> _DeliveryJob, from isolation: (any Actor)?, taking batch: inout [_DeliveryJob],
    keepingAlive loaded: inout [any Actor]?, superseding: Bool,
    _ supersede: (inout _DeliveryJob) -> Bool
  ) -> _DeliveryState.Arrival {
    let isHere =
      !(superseding && actorIdentity == nil) && isCurrent(isolation, keepingAlive: &loaded)
    if isHere, claimIfIdle() { return .deliverDirectly }
    if !isHere, isIdleAndOrphaned(from: isolation, keepingAlive: &loaded) { return .orphaned }
    let thread = _multicast_thread_number()
    return withLockedState {
      $0.arrive(
        job, isHere: isHere, thread: thread, taking: &batch, superseding: superseding, supersede)
    }
  }

  /// Sends `job` from `isolation`: delivered at once here, else queued.
  func send(_ job: _DeliveryJob, from isolation: (any Actor)?) {
    var batch: [_DeliveryJob] = []
    var loaded: [any Actor]? = nil
    let arrival = arrive({ job }, from: isolation, taking: &batch, keepingAlive: &loaded)
    loaded = nil
    complete(arrival, of: job, &batch)
  }

  /// Does what `arrival` of `job` says, after unlocking: delivers it and
  /// what waits (`batch` first), or schedules a drain.
  func complete(
    _ arrival: _DeliveryState.Arrival, of job: _DeliveryJob, _ batch: inout [_DeliveryJob]
  ) {
    switch arrival {
    case .deliverDirectly:
      checkDelivering()
      job.deliver(at: self)
      job.finish()
      deliverQueued(&batch)
    case .deliverBatch:
      deliverQueued(&batch)
    case .scheduleDrain:
      scheduleDrain()
    case .orphaned:
      job.finish()
    case .none:
      break
    }
  }

  /// Queues `job`, even from here: work that only a drain delivers.
  func enqueue(_ job: _DeliveryJob) {
    var batch: [_DeliveryJob] = []
    let arrival = withLockedState {
      $0.arrive({ job }, isHere: false, thread: .max, taking: &batch)
    }
    if arrival == .scheduleDrain { scheduleDrain() }
  }
}
