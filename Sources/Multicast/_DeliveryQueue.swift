// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import _MulticastAtomics

/// A serial queue of broadcasts bound for one actor: any thread may append,
/// and one party at a time delivers them on the actor, in the order they were
/// appended.
///
/// The order is the queue's own, not the scheduler's: tasks waiting for an
/// actor run by priority, not in the order they were made, so a task per
/// broadcast could deliver them out of order. Here at most one drain task is
/// scheduled at a time, and it delivers everything queued, batch after batch,
/// until the queue is empty; broadcasts appended meanwhile join the batch
/// after. One hop to the actor serves every broadcast queued behind it.
///
/// A caller already on the actor delivers at once, unless a delivery is
/// running (it is nested in one, or hears one through its observers): then
/// its broadcast waits for the queued ones, which come first. When the queue
/// is waiting for its drain task, such a caller takes the delivery over and
/// delivers the queued broadcasts and then its own, before it returns.
///
/// Events use the queue through ``claim(_:taking:)``, which keeps their
/// re-entrancy rule: a send made during a delivery, on the thread delivering,
/// is delivered at once, nested in the delivery, when nothing waits.
@usableFromInline
final class _DeliveryQueue<Job: Sendable>: @unchecked Sendable {
  // @unchecked Sendable: every stored property but `lock` is read and written
  // only with `lock` held; jobs are Sendable. The delivery tests send to one
  // queue from many tasks and threads under ThreadSanitizer.
  //
  // The properties are @usableFromInline, not private, so that the methods
  // are inlined into the broadcasts that call them and specialized for their
  // job type. The lock makes every access to them exclusive, so they skip the
  // run-time exclusivity check.
  @usableFromInline let lock: _Lock
  /// The broadcasts appended and not yet taken for delivery, oldest first.
  @usableFromInline @exclusivity(unchecked) var jobs: [Job] = []
  /// An empty array with room, kept between deliveries so that batches
  /// change hands without allocating.
  @usableFromInline @exclusivity(unchecked) var spare: [Job] = []
  /// Whether a drain task is scheduled and has not started.
  @usableFromInline @exclusivity(unchecked) var isScheduled = false
  /// Whether someone is delivering on the actor now.
  @usableFromInline @exclusivity(unchecked) var isDelivering = false
  /// The thread delivering, while `isDelivering`.
  @usableFromInline @exclusivity(unchecked) var deliverer: UInt = 0

  @usableFromInline
  init() {
    lock = _Lock(
      initializing: .allocate(byteCount: _Lock.byteCount, alignment: _Lock.alignment))
  }

  deinit {
    lock.destroy()
    lock.memory.deallocate()
  }

  /// What the caller of ``append(_:isOnActor:)`` must do.
  @usableFromInline
  enum Step {
    /// Deliver the batch now, then ask ``next(_:)`` for more.
    case deliver
    /// Schedule a drain task on the actor.
    case schedule
    /// Nothing: whoever is delivering, or the scheduled drain task, will
    /// deliver it.
    case nothing
  }

  /// Appends `job`.
  ///
  /// - Parameters:
  ///   - job: The broadcast.
  ///   - isOnActor: Whether the caller runs on the queue's actor.
  ///   - batch: Receives, when the step is ``Step/deliver``, the broadcasts to
  ///     deliver now, `job` last.
  /// - Returns: What the caller must do.
  @inlinable
  func append(_ job: Job, isOnActor: Bool, taking batch: inout [Job]) -> Step {
    lock.withLock {
      jobs.append(job)
      if isDelivering { return .nothing }
      if isOnActor {
        isDelivering = true
        deliverer = _multicast_current_thread()
        swap(&batch, &jobs)
        swap(&jobs, &spare)
        return .deliver
      }
      if isScheduled { return .nothing }
      isScheduled = true
      return .schedule
    }
  }

  /// What the caller of ``claim(_:taking:)`` must do.
  @usableFromInline
  enum Claim {
    /// Deliver now: the batch, if it holds broadcasts, then ask ``next(_:)``
    /// for more; otherwise the job directly, then ask
    /// ``nextAfterDirect(_:)``.
    case deliver
    /// Deliver the job now, nested in the delivery under way on this
    /// thread, and not through the queue.
    case nested
    /// Nothing: whoever is delivering will deliver it.
    case nothing
  }

  /// Claims the delivery for a caller that may deliver `job` where it runs,
  /// or tells it to deliver `job` nested in the delivery it is part of.
  ///
  /// When the queue is idle with nothing waiting, the caller delivers `job`
  /// itself, directly: `job` is not appended and `batch` stays empty; then it
  /// calls ``nextAfterDirect(_:)``. When broadcasts wait, `job` goes behind
  /// them and `batch` receives them all, to deliver, then ``next(_:)``.
  ///
  /// A caller on the thread delivering is nested in that delivery (a handler
  /// sent it). When nothing waits, it delivers its job at once, as a nested
  /// send does everywhere in the library; when broadcasts wait, it queues its
  /// job behind them, so that nothing sent earlier is overtaken.
  ///
  /// - Returns: What the caller must do.
  @inlinable
  func claim(_ job: Job, taking batch: inout [Job]) -> Claim {
    let thread = _multicast_current_thread()
    return lock.withLock {
      if isDelivering {
        if deliverer == thread && jobs.isEmpty { return .nested }
        jobs.append(job)
        return .nothing
      }
      isDelivering = true
      deliverer = thread
      if jobs.isEmpty { return .deliver }
      jobs.append(job)
      swap(&batch, &jobs)
      swap(&jobs, &spare)
      return .deliver
    }
  }

  /// After a claim whose job the caller delivered directly: ends the
  /// delivery, or takes the broadcasts queued meanwhile into `batch`.
  ///
  /// - Returns: Whether `batch` holds broadcasts to deliver (then ask
  ///   ``next(_:)`` for more after it).
  @inlinable
  func nextAfterDirect(_ batch: inout [Job]) -> Bool {
    lock.withLock {
      if jobs.isEmpty {
        isDelivering = false
        return false
      }
      swap(&batch, &jobs)
      swap(&jobs, &spare)
      return true
    }
  }

  /// Starts the scheduled drain, on the actor.
  ///
  /// - Returns: Whether there is a batch to deliver (then ask ``next(_:)``
  ///   for more after it): a caller on the actor may have delivered
  ///   everything since the drain was scheduled.
  @inlinable
  func startDrain(taking batch: inout [Job]) -> Bool {
    lock.withLock {
      isScheduled = false
      guard !isDelivering, !jobs.isEmpty else { return false }
      isDelivering = true
      deliverer = _multicast_current_thread()
      swap(&batch, &jobs)
      swap(&jobs, &spare)
      return true
    }
  }

  /// Hands back a delivered batch and takes the next one, or ends the
  /// delivery when nothing is left.
  ///
  /// - Returns: Whether `batch` holds more broadcasts to deliver.
  @inlinable
  func next(_ batch: inout [Job]) -> Bool {
    batch.removeAll(keepingCapacity: true)
    return lock.withLock {
      if jobs.isEmpty {
        isDelivering = false
        swap(&spare, &batch)
        return false
      }
      swap(&batch, &jobs)
      return true
    }
  }

  /// The number of broadcasts appended and not yet taken for delivery.
  var waitingCount: Int { lock.withLock { jobs.count } }
}
