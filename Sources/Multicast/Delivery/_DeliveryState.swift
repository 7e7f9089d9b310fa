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
/// The two flags and whether work waits make up ``flags``, which the
/// destination also keeps in an atomic word, so that a caller on its
/// isolation can make two transitions without the lock, since they touch no
/// queue: ``arrive(_:isHere:taking:)`` when nothing waits and no one
/// delivers or is scheduled (``Flags/idle`` to ``Flags/onlyDelivering``),
/// and ``next(_:)`` when nothing arrived meanwhile (back again).
///
/// Work leaves the queue in the order it arrived, in batches of at most
/// ``batchLimit`` jobs, so that a drain can give its actor back between two
/// batches without putting anything back. The queue is a list of chunks of
/// at most that many jobs, and a batch is the oldest chunk, handed over
/// whole: no job is copied on its way through the queue, and a sender
/// appending to a long queue never copies it under the lock (a million jobs
/// would take milliseconds to copy, while the deliverer waits for the lock).
struct _DeliveryState {
  /// The most jobs a deliverer takes at once: the most one chunk holds.
  static let batchLimit = 256

  /// Work arrived, oldest first.
  ///
  /// The chunks from `head` on hold it, none of them empty; those before
  /// `head` were handed over, and are empty.
  private var chunks: [[_DeliveryJob]] = []
  private var head = 0
  private(set) var isScheduled = false
  private(set) var isDelivering = false

  /// Whether no work waits.
  var isEmpty: Bool { head == chunks.count }

  /// The state's flags in one word.
  struct Flags: OptionSet, Equatable {
    let rawValue: UInt64

    static let delivering = Flags(rawValue: 1)
    static let scheduled = Flags(rawValue: 2)
    static let waiting = Flags(rawValue: 4)

    /// Nothing waits, no one delivers, no drain is scheduled: a caller on
    /// the destination's isolation delivers its send directly.
    static let idle: Flags = []
    /// A caller delivers its send directly, and nothing else happened.
    static let onlyDelivering: Flags = [.delivering]
  }

  /// Whether someone delivers, whether a drain is scheduled, whether work
  /// waits.
  var flags: Flags {
    var flags = Flags()
    if isDelivering { flags.insert(.delivering) }
    if isScheduled { flags.insert(.scheduled) }
    if !isEmpty { flags.insert(.waiting) }
    return flags
  }

  /// Takes the flags that two transitions made without the lock (see
  /// ``Flags``) changed: whether someone delivers.
  mutating func applyLockFreeTransitions(_ flags: Flags) {
    precondition(
      flags.contains(.waiting) == !isEmpty && flags.contains(.scheduled) == isScheduled,
      "a destination's flags changed without its lock beyond the two lock-free transitions")
    isDelivering = flags.contains(.delivering)
  }

  /// The work waiting, oldest first; O(n), for tests.
  var waiting: [_DeliveryJob] { Array(chunks[head...].joined()) }

  /// What the caller of ``arrive(_:isHere:taking:)`` must do.
  enum Arrival: Equatable {
    /// Deliver the job now, itself (it was not queued: nothing waited);
    /// then ``next(_:)``.
    case deliverDirectly
    /// Deliver the batch now (what waited, with the job last if it fits);
    /// then ``next(_:)``.
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
      append(job())
      return .none
    }
    if isHere {
      isDelivering = true
      if isEmpty { return .deliverDirectly }
      append(job())
      take(into: &batch)
      return .deliverBatch
    }
    append(job())
    if isScheduled { return .none }
    isScheduled = true
    return .scheduleDrain
  }

  /// A caller on the destination's isolation with nothing to send takes
  /// what waits, unless someone is delivering.
  ///
  /// - Returns: Whether `batch` holds work to deliver (then ``next(_:)``).
  mutating func claim(taking batch: inout [_DeliveryJob]) -> Bool {
    guard !isDelivering, !isEmpty else { return false }
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
    guard isEmpty, !isDelivering else { return false }
    isScheduled = false
    return true
  }

  /// A deliverer hands back its delivered (emptied) batch and takes the next
  /// one, or ends the delivery when nothing is left.
  ///
  /// - Returns: Whether `batch` holds more work to deliver.
  mutating func next(_ batch: inout [_DeliveryJob]) -> Bool {
    precondition(isDelivering, "a delivery ended that had not started")
    precondition(batch.isEmpty, "a batch was handed back before it was delivered")
    if isEmpty {
      isDelivering = false
      return false
    }
    take(into: &batch)
    return true
  }

  /// A drain stops between two batches, its time up, and gives the actor
  /// back to its other work.
  ///
  /// - Returns: Whether the caller must schedule a drain for what is left.
  mutating func pause() -> Bool {
    precondition(isDelivering, "a delivery paused that had not started")
    isDelivering = false
    guard !isEmpty, !isScheduled else { return false }
    isScheduled = true
    return true
  }

  /// A drain stops before the rest of its batch, `rest`, which goes back to
  /// the front of the queue, and gives the actor back.
  ///
  /// - Returns: Whether the caller must schedule a drain for what is left.
  mutating func pause(returning rest: [_DeliveryJob]) -> Bool {
    if !rest.isEmpty, head > 0 {
      head -= 1
      chunks[head] = rest
    } else if !rest.isEmpty {
      chunks.insert(rest, at: 0)
    }
    return pause()
  }

  /// The destination's actor is gone: everything waiting is taken, to be
  /// dropped, and nothing is scheduled any more.
  mutating func abandon(taking batch: inout [_DeliveryJob]) {
    isScheduled = false
    batch.append(contentsOf: waiting)
    chunks.removeAll()
    head = 0
  }

  /// Checks the state's invariants; the destination calls it after every
  /// transition when built with `MULTICAST_INTERNAL_CHECKS`.
  ///
  /// - Nothing waits unless someone will deliver it: a delivery in progress
  ///   takes it before it ends, or a scheduled drain does.
  /// - No chunk waiting is empty, or holds more than a batch; every chunk
  ///   handed over is.
  func checkInvariants() {
    precondition(
      isEmpty || isDelivering || isScheduled,
      "work waits on a destination with no delivery in progress and no drain scheduled")
    precondition(
      head <= chunks.count && chunks[..<head].allSatisfy(\.isEmpty)
        && chunks[head...].allSatisfy { !$0.isEmpty && $0.count <= Self.batchLimit },
      "a destination's queue holds an empty chunk, or one too long, or kept one handed over")
  }

  /// Appends `job` to the last chunk, or to a new one when it is full.
  private mutating func append(_ job: _DeliveryJob) {
    if !isEmpty, chunks[chunks.count - 1].count < Self.batchLimit {
      chunks[chunks.count - 1].append(job)
    } else {
      var chunk: [_DeliveryJob] = []
      chunk.reserveCapacity(isEmpty ? 16 : Self.batchLimit)
      chunk.append(job)
      chunks.append(chunk)
    }
  }

  /// Hands the oldest chunk over as `batch`, which must be empty: the
  /// chunk's buffer moves, and no job is copied.
  private mutating func take(into batch: inout [_DeliveryJob]) {
    batch = chunks[head]
    chunks[head] = []
    head += 1
    if isEmpty {
      chunks.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 32, head * 2 >= chunks.count {
      // The chunks handed over are dropped now and then, in O(n) for n
      // chunks, after at least n of them: O(1) per chunk, amortized.
      chunks.removeFirst(head)
      head = 0
    }
  }
}
