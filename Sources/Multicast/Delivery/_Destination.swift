// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

/// Where handlers run, an actor or no actor, with one serial queue (README.md,
/// section 1).
final class _Destination: @unchecked Sendable {
  // @unchecked Sendable: `state` is guarded by `lock`, `status` is atomic
  // (D1); the rest is immutable or a weak reference.

  let actorIdentity: ObjectIdentifier?
  let executor: _ExecutorIdentity?
  /// The actor, unless it is the main actor: held weakly (D7).
  private weak let otherActor: (any Actor)?
  /// The main actor lives as long as the process and needs no weak
  /// reference (whose side table a leak checker reports).
  let isMainActor: Bool
  /// Whether the actor may die, leaving the destination orphaned (D7).
  let isOfMortalActor: Bool
  private let lock: _Lock
  private var state = _DeliveryState()
  /// The state's flags, plus ``lockedFlag`` while the lock is held (D1).
  private let status: UnsafeMutablePointer<UInt64>

  private static let lockedFlag: UInt64 = 1 << 63

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

  /// Runs `body` on the state with the lock held (D1).
  func withLockedState<Result>(_ body: (inout _DeliveryState) -> Result) -> Result {
    lock.lock()
    let flags = _multicast_fetch_or(status, Self.lockedFlag)
    _check(flags & Self.lockedFlag == 0, "D1: a destination's status was locked twice")
    state.applyLockFreeTransitions(_DeliveryState.Flags(rawValue: flags))
    let result = body(&state)
    state.checkInvariants()
    let garbage = state.takeGarbage()
    _multicast_store_release(status, state.flags.rawValue)
    lock.unlock()
    withExtendedLifetime(garbage) {}
    return result
  }

  /// Claims an idle destination without the lock, for the calling thread (D1).
  @inline(__always)
  func claimIfIdle() -> Bool {
    _multicast_compare_exchange(
      status, _DeliveryState.Flags.idle.rawValue,
      _DeliveryState.Flags.onlyDelivering(by: _multicast_thread_number()).rawValue)
  }

  /// Ends the calling thread's delivery without the lock if nothing came (D1).
  @inline(__always)
  func finishIfOnlyDelivering() -> Bool {
    _multicast_compare_exchange(
      status, _DeliveryState.Flags.onlyDelivering(by: _multicast_thread_number()).rawValue,
      _DeliveryState.Flags.idle.rawValue)
  }

  /// The actor, while it lives.
  var actor: (any Actor)? { isMainActor ? MainActor.shared : otherActor }

  /// What subscriptions made here record.
  var key: _IsolationKey { _IsolationKey(actor: actorIdentity) }

  /// Whether the destination belongs to an actor that is gone (D7).
  var isOrphaned: Bool { isOfMortalActor && otherActor == nil }

  /// Whether code isolated to `isolation` runs here (README.md, section 1).
  @inline(__always)
  func isCurrent(_ isolation: (any Actor)?) -> Bool {
    var loaded: [any Actor]? = nil
    return isCurrent(isolation, keepingAlive: &loaded)
  }

  /// ``isCurrent(_:)`` under a lock, loading no actor: `false` for code of no
  /// actor on a mortal actor's executor.
  @inline(__always)
  func isCurrentLoadingNothing(_ isolation: (any Actor)?) -> Bool {
    guard let actorIdentity else { return true }
    if let isolation {
      // The caller holds `isolation`: the actor, if it lives.
      return ObjectIdentifier(isolation) == actorIdentity && (!isOfMortalActor || otherActor != nil)
    }
    return !isOfMortalActor && isCurrentExecutor()
  }

  /// ``isCurrent(_:)`` under a lock: a mortal actor loaded to see that it
  /// lives goes to `loaded`, released after unlocking (D12).
  @inline(__always)
  func isCurrent(_ isolation: (any Actor)?, keepingAlive loaded: inout [any Actor]?) -> Bool {
    guard let actorIdentity else { return true }
    if let isolation {
      // The caller holds `isolation`: the actor, if it lives.
      guard ObjectIdentifier(isolation) == actorIdentity else { return false }
      return !isOfMortalActor || otherActor != nil
    }
    guard isCurrentExecutor() else { return false }
    guard isOfMortalActor else { return true }
    // Code isolated to no actor, on an executor that actors may share.
    guard let actor = otherActor else { return false }
    if loaded == nil { loaded = [actor] } else { loaded!.append(actor) }
    return true
  }

  /// Whether the actor is gone and nothing waits or is delivered, so that work
  /// is not queued (D7), loading as ``isCurrent(_:keepingAlive:)`` does.
  @inline(__always)
  func isIdleAndOrphaned(
    from isolation: (any Actor)?, keepingAlive loaded: inout [any Actor]?
  ) -> Bool {
    guard isOfMortalActor,
      _multicast_load_acquire(status) == _DeliveryState.Flags.idle.rawValue,
      isolation.map({ ObjectIdentifier($0) }) != actorIdentity
    else { return false }
    guard let actor = otherActor else { return true }
    if loaded == nil { loaded = [actor] } else { loaded!.append(actor) }
    return false
  }

  /// Whether subscriptions made on `isolation` run here.
  func serves(_ isolation: (any Actor)?) -> Bool {
    guard let isolation else { return actorIdentity == nil }
    return ObjectIdentifier(isolation) == actorIdentity && !isOrphaned
  }

  private func isCurrentExecutor() -> Bool {
    executor?.isCurrent(isMainActor: isMainActor) ?? false
  }

  /// Traps, in checked builds, unless the caller is the one deliverer, on the
  /// destination's isolation (D3), a body whose isolation was dropped included.
  @inline(__always)
  func checkDelivering() {
    _check(
      _multicast_load_acquire(status) & _DeliveryState.Flags.delivering.rawValue != 0,
      "D3: work is delivered on a destination that no one claimed")
    _check(
      actorIdentity == nil || isCurrentExecutor(),
      "D3: work is delivered off its destination's isolation")
  }

  /// Delivers what waits, for a caller here with nothing to send, unless
  /// someone delivers.
  func deliverWaiting() {
    // Work that arrives after this load schedules its own drain.
    if _multicast_load_acquire(status) & _DeliveryState.Flags.waiting.rawValue == 0 { return }
    var batch: [_DeliveryJob] = []
    let thread = _multicast_thread_number()
    if withLockedState({ $0.claim(taking: &batch, thread: thread) }) { deliverQueued(&batch) }
  }

  /// Whether nothing waits, no one delivers, and no drain is on its way.
  var isIdle: Bool {
    withLockedState { $0.isEmpty && !$0.isDelivering && !$0.isScheduled }
  }

  /// The amount of work waiting, for tests.
  var waitingCount: Int { withLockedState { $0.waiting.count } }

  /// How many of the jobs waiting `source` made, for tests; with the lock
  /// held, since a job keeps its source only while it waits (D8).
  func waitingCount(madeBy source: AnyObject) -> Int {
    let identity = ObjectIdentifier(source)
    return withLockedState { state in
      state.waiting.count { ObjectIdentifier($0.source) == identity }
    }
  }
}
