// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

/// One place where handlers run, with the serial queue of the work bound for
/// it: an actor, shared by every subject and every face that delivers there,
/// or "no actor".
///
/// Everything one place queues for an actor, through any subject, arrives in
/// the order it was queued, since it all goes through this one queue. A
/// caller that runs on the destination's isolation delivers the queue at once,
/// its own work last, before it returns; work queued from elsewhere is
/// delivered by a drain task on the actor, in batches of about half a
/// millisecond, between which the actor is given back to its other work.
///
/// Destinations of actors come from ``of(_:)``, one per actor while any
/// subject uses it. A destination of no actor is made by each subject that
/// needs one: its work is delivered by the threads that send it, one send at
/// a time.
final class _Destination: @unchecked Sendable {
  // @unchecked Sendable: `state` is read and written only with `lock` held;
  // `status` only through atomic operations; the other stored properties
  // are immutable, or a weak reference, which the runtime makes thread-safe. The delivery tests send to destinations
  // from many tasks and threads under ThreadSanitizer.

  /// The actor's identity, or `nil` for no actor: what a caller's
  /// isolation is compared with first.
  let actorIdentity: ObjectIdentifier?
  /// The actor's executor, which tells at run time whether code runs here.
  let executor: _ExecutorIdentity?
  /// The actor, while it lives, unless it is the main actor: a destination
  /// keeps no actor alive.
  private weak let otherActor: (any Actor)?
  /// Whether the actor is the main actor, which lives as long as the process
  /// and needs no weak reference (whose side table a leak checker would take
  /// for a leak).
  let isMainActor: Bool
  /// Whether the destination belongs to an actor other than the main actor:
  /// the one kind whose actor may die, leaving the destination orphaned,
  /// and whose identity a new actor at the same address may then match.
  let isOfMortalActor: Bool
  private let lock: _Lock
  /// Read and written only through ``withLockedState(_:)``.
  @exclusivity(unchecked) private var state = _DeliveryState()
  /// The state's flags (``_DeliveryState/Flags``), kept in an atomic word
  /// beside the lock, in the same allocation.
  ///
  /// With the lock held they are the state's own, plus ``lockedFlag``. A
  /// caller on the destination's isolation makes two transitions on them
  /// alone, by compare-and-exchange, without the lock: from idle to
  /// delivering its send, and back when nothing arrived meanwhile. Each
  /// expects exact flags, so none succeeds while the lock is held; and the
  /// lock's holder applies what they changed (who delivers) when it takes the
  /// lock. A delivery ended by one thread and begun by another is ordered by
  /// the exchange, as by the lock.
  private let status: UnsafeMutablePointer<UInt64>

  /// The flag set in ``status`` while the lock is held.
  private static let lockedFlag: UInt64 = 1 << 63

  /// Creates the destination of `actor`, or of no actor.
  init(actor: (any Actor)?) {
    actorIdentity = actor.map { ObjectIdentifier($0) }
    executor = actor.map { _ExecutorIdentity(of: $0) }
    isMainActor = actor === MainActor.shared
    otherActor = isMainActor ? nil : actor
    isOfMortalActor = actor != nil && !isMainActor
    // The status word first, then the lock, in one allocation.
    let lockOffset = max(MemoryLayout<UInt64>.stride, _Lock.alignment)
    let memory = UnsafeMutableRawPointer.allocate(
      byteCount: lockOffset + _Lock.byteCount,
      alignment: max(MemoryLayout<UInt64>.alignment, _Lock.alignment))
    status = memory.initializeMemory(as: UInt64.self, repeating: 0, count: 1)
    lock = _Lock(initializing: memory + lockOffset)
  }

  deinit {
    lock.destroy()
    status.deinitialize(count: 1)
    UnsafeMutableRawPointer(status).deallocate()
  }

  /// Runs `body` on the state with the lock held.
  ///
  /// This is the one way the state changes, but for the two transitions
  /// made on ``status`` alone. Built with `MULTICAST_INTERNAL_CHECKS`
  /// defined, the state checks its invariants after every transition.
  func withLockedState<Result>(_ body: (inout _DeliveryState) -> Result) -> Result {
    lock.lock()
    // Shuts the lock-free transitions out until the new flags are stored,
    // and takes what they changed.
    state.applyLockFreeTransitions(
      _DeliveryState.Flags(rawValue: _multicast_fetch_or(status, Self.lockedFlag)))
    let result = body(&state)
    #if MULTICAST_INTERNAL_CHECKS
    state.checkInvariants()
    #endif
    _multicast_store_release(status, state.flags.rawValue)
    lock.unlock()
    return result
  }

  /// A caller here starts delivering its send when the destination is idle,
  /// without the lock: ``_DeliveryState/arrive(_:isHere:taking:)`` from
  /// ``_DeliveryState/Flags/idle``.
  ///
  /// - Returns: Whether it did; if not, the caller takes the lock.
  func claimIfIdle() -> Bool {
    _multicast_compare_exchange(
      status, _DeliveryState.Flags.idle.rawValue, _DeliveryState.Flags.onlyDelivering.rawValue)
  }

  /// A deliverer ends its delivery when nothing arrived meanwhile, without
  /// the lock: ``_DeliveryState/next(_:)`` from
  /// ``_DeliveryState/Flags/onlyDelivering``.
  ///
  /// - Returns: Whether it did; if not, the caller takes the lock.
  func finishIfOnlyDelivering() -> Bool {
    _multicast_compare_exchange(
      status, _DeliveryState.Flags.onlyDelivering.rawValue, _DeliveryState.Flags.idle.rawValue)
  }

  /// The actor, while it lives.
  var actor: (any Actor)? { isMainActor ? MainActor.shared : otherActor }

  /// What subscriptions made here record.
  var key: _IsolationKey {
    actorIdentity == nil ? .noActor : _IsolationKey(destination: self)
  }

  /// Whether the destination belongs to an actor that is gone.
  var isOrphaned: Bool { isOfMortalActor && otherActor == nil }

  /// Whether code whose isolation is `isolation` runs here.
  ///
  /// Where the compiler knows the caller's actor, that decides. Where it does
  /// not (`nil`: nonisolated code, a setter, a `deinit`), the concurrency
  /// runtime tells which executor the caller runs on. Every caller runs where
  /// no actor is.
  ///
  /// An actor other than the main actor must also be alive: a new actor
  /// may have a dead one's address, and so its identity and its executor's,
  /// and it is never taken for the dead one. A weak reference to the dead
  /// actor reads `nil` whatever now lives at its address.
  @inline(__always)
  func isCurrent(_ isolation: (any Actor)?) -> Bool {
    guard let actorIdentity else { return true }
    if let isolation {
      guard ObjectIdentifier(isolation) == actorIdentity else { return false }
    } else {
      guard isCurrentExecutor() else { return false }
    }
    return !isOfMortalActor || otherActor != nil
  }

  /// Whether this destination is the one where subscriptions made on
  /// `isolation` run: the destination of that actor, alive, or of no actor.
  func serves(_ isolation: (any Actor)?) -> Bool {
    guard let isolation else { return actorIdentity == nil }
    return ObjectIdentifier(isolation) == actorIdentity && !isOrphaned
  }

  /// Whether the caller runs on the destination's executor, as the runtime
  /// tells.
  private func isCurrentExecutor() -> Bool {
    executor?.isCurrent(isMainActor: isMainActor) ?? false
  }

  // MARK: Arriving

  /// Work arrives from `isolation`, as ``_DeliveryState/arrive(_:isHere:taking:)``
  /// says; `job` is made only if the work is queued.
  func arrive(
    _ job: () -> _DeliveryJob, from isolation: (any Actor)?, taking batch: inout [_DeliveryJob]
  ) -> _DeliveryState.Arrival {
    let isHere = isCurrent(isolation)
    if isHere, claimIfIdle() { return .deliverDirectly }
    return withLockedState { $0.arrive(job, isHere: isHere, taking: &batch) }
  }

  /// Sends `job` from `isolation`: delivers it, after what waits, before
  /// returning when the caller runs here and no delivery is in progress;
  /// otherwise queues it.
  func send(_ job: _DeliveryJob, from isolation: (any Actor)?) {
    var batch: [_DeliveryJob] = []
    switch arrive({ job }, from: isolation, taking: &batch) {
    case .deliverDirectly:
      job.source.deliver(job, at: self)
      job.finish()
      deliverQueued(&batch)
    case .deliverBatch:
      deliverQueued(&batch)
    case .scheduleDrain:
      scheduleDrain()
    case .none:
      break
    }
  }

  /// Queues `job`, even from the destination's own isolation: work that only
  /// a drain task can deliver.
  func enqueue(_ job: _DeliveryJob) {
    var batch: [_DeliveryJob] = []
    if withLockedState({ $0.arrive({ job }, isHere: false, taking: &batch) }) == .scheduleDrain {
      scheduleDrain()
    }
  }

  /// Delivers what waits, before returning, for a caller that runs here and
  /// has nothing to send; does nothing while a delivery is in progress.
  func deliverWaiting() {
    // Nothing waits, as far as anyone can tell now: work arriving from
    // elsewhere after this reading schedules its own drain.
    if _multicast_load_acquire(status) & _DeliveryState.Flags.waiting.rawValue == 0 { return }
    var batch: [_DeliveryJob] = []
    if withLockedState({ $0.claim(taking: &batch) }) { deliverQueued(&batch) }
  }

  /// Whether nothing waits, no one delivers, and no drain task is on its
  /// way: one holds its actor until it has run there.
  var isIdle: Bool {
    withLockedState { $0.isEmpty && !$0.isDelivering && !$0.isScheduled }
  }

  /// The amount of work waiting, for tests.
  var waitingCount: Int { withLockedState { $0.waiting.count } }

  /// How many of the jobs waiting `source` made, for tests.
  ///
  /// Counted with the lock held: a job's source is unowned, and stays alive
  /// only while the job waits.
  func waitingCount(madeBy source: AnyObject) -> Int {
    let identity = ObjectIdentifier(source)
    return withLockedState { state in
      state.waiting.count { ObjectIdentifier($0.source) == identity }
    }
  }
}
