// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// One destination's serial queue, the work waiting and who delivers it: a
/// transition runs under the destination's lock and returns what to do after.
struct _DeliveryState {
  /// The most jobs a deliverer takes at once: the most one chunk holds.
  static let batchLimit = 256

  /// The chunks from `head` on wait, oldest first; those before are empty.
  private var chunks: [[_DeliveryJob]] = []
  private var head = 0
  /// Emptied batches handed back, each reused as a new chunk (D2).
  ///
  /// At most `spareLimit`: during a flood neither thread frees what the other
  /// allocates, which waits on the allocator. Dropped by a finish under the
  /// lock, not by a lock-free one: dropped at each, they were freed while the
  /// flood went on, and the waits came back.
  private var spares: [[_DeliveryJob]] = []
  static let spareLimit = 4
  /// Buffers let go in a transition, freed by the caller after unlocking.
  private var garbage: (batch: [_DeliveryJob], spares: [[_DeliveryJob]]) = ([], [])
  private(set) var isScheduled = false
  private(set) var isDelivering = false
  /// How many jobs have arrived, and been handed to deliverers, ever.
  private var arrived: UInt64 = 0
  private var taken: UInt64 = 0
  /// The deliverer owes the jobs numbered up to this, as `arrived` counts (D9).
  private var owed: UInt64 = 0
  /// The thread of the deliverer, or of the last one.
  private var deliverer: UInt32 = .max

  var isEmpty: Bool { head == chunks.count }

  /// The flags, mirrored in the destination's status word (D1) with the
  /// deliverer's thread.
  struct Flags: OptionSet, Equatable {
    let rawValue: UInt64

    static let delivering = Flags(rawValue: 1)
    static let scheduled = Flags(rawValue: 2)
    static let waiting = Flags(rawValue: 4)

    /// Nothing waits, no one delivers, no drain is scheduled.
    static let idle: Flags = []

    /// Someone delivers, on `thread`; nothing waits, no drain is scheduled.
    static func onlyDelivering(by thread: UInt32) -> Flags {
      Flags(rawValue: Flags.delivering.rawValue | UInt64(thread) << 8)
    }

    var deliverer: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 8) }
  }

  var flags: Flags {
    var flags = isDelivering ? Flags.onlyDelivering(by: deliverer) : Flags()
    if isScheduled { flags.insert(.scheduled) }
    if !isEmpty { flags.insert(.waiting) }
    return flags
  }

  /// Takes in what the two lock-free transitions changed (D1).
  mutating func applyLockFreeTransitions(_ flags: Flags) {
    precondition(
      flags.contains(.waiting) == !isEmpty && flags.contains(.scheduled) == isScheduled,
      "D1: a destination's flags changed without its lock beyond the two lock-free transitions")
    if !isDelivering && flags.contains(.delivering) {
      deliverer = flags.deliverer
      owed = taken
    }
    isDelivering = flags.contains(.delivering)
  }

  /// The work waiting, oldest first; O(n), for tests.
  var waiting: [_DeliveryJob] { Array(chunks[head...].joined()) }

  /// How many emptied batches wait to be reused, for tests.
  var spareCount: Int { spares.count }

  /// What the caller of ``arrive(_:isHere:thread:taking:superseding:_:)`` does.
  enum Arrival: Equatable {
    /// Deliver the job, nothing waiting; then ``next(_:isPastBudget:)``.
    case deliverDirectly
    /// Deliver `batch`; then ``next(_:isPastBudget:)``.
    case deliverBatch
    case scheduleDrain
    /// Nothing: the delivery in progress, or the drain scheduled, takes it.
    case none
    /// Not queued: idle, its actor gone (D7); found only before the lock.
    case orphaned
  }

  /// Work arrives from `thread`, on the destination's isolation (`isHere`) or
  /// not; `supersede` may take it into a waiting job, then moved last (D4).
  mutating func arrive(
    _ job: () -> _DeliveryJob, isHere: Bool, thread: UInt32, taking batch: inout [_DeliveryJob],
    superseding: Bool = false, _ supersede: (inout _DeliveryJob) -> Bool = { _ in false }
  ) -> Arrival {
    let isSuperseded = superseding && !isEmpty && supersedeWaiting(supersede)
    if isDelivering {
      if !isSuperseded { append(job()) }
      // A handler's send: the deliverer owes it too (D9).
      if isHere && thread == deliverer { owed = arrived }
      return .none
    }
    if isHere {
      isDelivering = true
      deliverer = thread
      owed = arrived
      if isEmpty { return .deliverDirectly }
      if !isSuperseded { append(job()) }
      owed = arrived
      take(into: &batch)
      return .deliverBatch
    }
    // Work waits, so a drain is scheduled (D2).
    if isSuperseded { return .none }
    append(job())
    if isScheduled { return .none }
    isScheduled = true
    return .scheduleDrain
  }

  /// A caller here with nothing to send takes what waits, owing it all, unless
  /// someone delivers; true if it did (then ``next(_:isPastBudget:)``).
  mutating func claim(
    taking batch: inout [_DeliveryJob], thread: UInt32, owingAll: Bool = true
  ) -> Bool {
    guard !isDelivering, !isEmpty else { return false }
    isDelivering = true
    deliverer = thread
    owed = owingAll ? arrived : taken
    take(into: &batch)
    return true
  }

  /// The scheduled drain starts on the actor, owing nothing; as `claim`.
  mutating func startDrain(taking batch: inout [_DeliveryJob], thread: UInt32) -> Bool {
    isScheduled = false
    return claim(taking: &batch, thread: thread, owingAll: false)
  }

  /// The scheduled drain, before it hops, ends if nothing is left; true if so.
  mutating func cancelDrainIfIdle() -> Bool {
    guard isEmpty, !isDelivering else { return false }
    isScheduled = false
    return true
  }

  /// What a deliverer does after ``next(_:isPastBudget:)``.
  enum Next {
    /// Deliver `batch`, which holds jobs it owes (`isOwed`) or not.
    case deliver(isOwed: Bool)
    case finish
    /// Stop, and schedule a drain for what is left (D9).
    case pause
    /// Stop: a drain is scheduled for what is left.
    case pauseScheduled
  }

  /// A deliverer hands back its emptied batch and takes the next; or stops when
  /// nothing is left, or when it owes nothing and `isPastBudget` (D9).
  mutating func next(_ batch: inout [_DeliveryJob], isPastBudget: Bool) -> Next {
    precondition(isDelivering, "D3: a delivery ended that had not started")
    precondition(batch.isEmpty, "a batch was handed back before it was delivered")
    if isEmpty {
      isDelivering = false
      dropSpares()
      return .finish
    }
    if taken >= owed && isPastBudget {
      return pause() ? .pause : .pauseScheduled
    }
    let wasOwed = taken < owed
    take(into: &batch)
    return .deliver(isOwed: wasOwed)
  }

  /// A deliverer stops between batches (D9); true if a drain must be scheduled.
  mutating func pause() -> Bool {
    precondition(isDelivering, "D3: a delivery paused that had not started")
    isDelivering = false
    guard !isEmpty, !isScheduled else { return false }
    isScheduled = true
    return true
  }

  /// Lets the spares go, with nothing left to reuse them (D2).
  private mutating func dropSpares() {
    guard !spares.isEmpty else { return }
    // Moved whole: no allocation under the lock, unless garbage waits already.
    if garbage.spares.isEmpty {
      swap(&spares, &garbage.spares)
    } else {
      garbage.spares += spares
      spares.removeAll()
    }
  }

  /// Takes the buffers a transition let go, to free after unlocking: a free
  /// may wait on the allocator, and senders on the lock.
  mutating func takeGarbage() -> (batch: [_DeliveryJob], spares: [[_DeliveryJob]])? {
    guard garbage.batch.capacity > 0 || !garbage.spares.isEmpty else { return nil }
    defer { garbage = ([], []) }
    return garbage
  }

  /// A drain stops before `rest`, put back in front (D4); as ``pause()``.
  mutating func pause(returning rest: [_DeliveryJob]) -> Bool {
    taken &-= UInt64(rest.count)
    if !rest.isEmpty, head > 0 {
      head -= 1
      chunks[head] = rest
    } else if !rest.isEmpty {
      chunks.insert(rest, at: 0)
    }
    return pause()
  }

  /// The actor is gone: everything waiting is taken, to be dropped (D7).
  mutating func abandon(taking batch: inout [_DeliveryJob]) {
    isScheduled = false
    if chunks.count - head == 1 {
      batch = chunks[head]  // moved whole, the common case
    } else {
      for chunk in chunks[head...] { batch.append(contentsOf: chunk) }
    }
    taken = arrived
    chunks.removeAll()
    dropSpares()
    head = 0
  }

  /// Traps unless D2 holds, in checked builds; called after every transition.
  @inline(__always)
  func checkInvariants() {
    #if MULTICAST_INTERNAL_CHECKS
    precondition(
      isEmpty || isDelivering || isScheduled,
      "D2: work waits on a destination with no delivery in progress and no drain scheduled")
    precondition(
      head <= chunks.count && chunks[..<head].allSatisfy(\.isEmpty)
        && chunks[head...].allSatisfy { !$0.isEmpty && $0.count <= Self.batchLimit },
      "D2: a destination's queue holds an empty chunk, or one too long, or kept one handed over")
    precondition(
      spares.count <= Self.spareLimit && spares.allSatisfy(\.isEmpty),
      "D2: a destination keeps too many spare chunks, or one not empty")
    #endif
  }

  /// Whether `supersede` took the work into one of the last 8 jobs waiting,
  /// then moved last; a job further back stays, and the work gets its own.
  private mutating func supersedeWaiting(_ supersede: (inout _DeliveryJob) -> Bool) -> Bool {
    var (chunk, index) = (chunks.count - 1, chunks[chunks.count - 1].count - 1)
    for _ in 0..<8 {
      if supersede(&chunks[chunk][index]) {
        moveLast(chunk, index)
        return true
      }
      if index == 0 {
        guard chunk > head else { return false }
        chunk -= 1
        index = chunks[chunk].count
      }
      index -= 1
    }
    return false
  }

  /// Moves a job to the end of the queue, dropping its chunk if emptied.
  private mutating func moveLast(_ chunk: Int, _ index: Int) {
    let last = chunks.count - 1
    guard chunk < last || index < chunks[last].count - 1 else { return }
    let job = chunks[chunk].remove(at: index)
    if chunks[chunk].isEmpty { chunks.remove(at: chunk) }
    if chunks[chunks.count - 1].count < Self.batchLimit {
      chunks[chunks.count - 1].append(job)
    } else {
      chunks.append([job])
    }
  }

  /// Appends `job` to the last chunk, or to a new one when it is full.
  private mutating func append(_ job: _DeliveryJob) {
    arrived &+= 1
    if !isEmpty, chunks[chunks.count - 1].count < Self.batchLimit {
      chunks[chunks.count - 1].append(job)
    } else {
      var chunk = spares.popLast() ?? []
      if chunk.capacity == 0 { chunk.reserveCapacity(isEmpty ? 16 : Self.batchLimit) }
      chunk.append(job)
      chunks.append(chunk)
    }
  }

  /// Hands the oldest chunk over as `batch`, which must be empty: the
  /// chunk's buffer moves, and no job is copied; `batch`'s own becomes a spare.
  private mutating func take(into batch: inout [_DeliveryJob]) {
    if batch.capacity >= Self.batchLimit, spares.count < Self.spareLimit {
      spares.append(batch)
    } else if batch.capacity > 0 {
      garbage.batch = batch
    }
    batch = chunks[head]
    taken &+= UInt64(batch.count)
    chunks[head] = []
    head += 1
    if isEmpty {
      chunks.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 32, head * 2 >= chunks.count {
      // Dropping the chunks handed over costs O(1) per chunk, amortized.
      chunks.removeFirst(head)
      head = 0
    }
  }
}
