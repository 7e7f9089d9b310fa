// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

/// What a ``Subscription`` ends: its event's core, seen through a protocol so
/// that a subscription needs neither a generic parameter nor a closure.
protocol _SubscriptionSource: AnyObject, Sendable {
  /// Ends `registration`, if it has not ended; `isolation` is where the
  /// caller runs, if known.
  func unsubscribe(_ registration: _Registration, from isolation: (any Actor)?)
}

/// What a subscription does with a value: it gets the object its
/// registration holds weakly (the target, or the core itself) and the value,
/// lent by a pointer (read it with ``_EventCore/value(at:)``).
///
/// The value's type is erased so that every event keeps the same storage
/// type, compiled once in this module: storage code generic over `Value`
/// would look its types up at run time on every send unless the caller's
/// module specialized it.
typealias _EventHandler = (AnyObject, UnsafeRawPointer) -> Void

/// One subscription's payload: its handler, and the isolation it was made
/// from, where the handler runs.
struct _Subscriber {
  /// The identity of the actor the subscription was made on, or `nil` for
  /// code isolated to no actor.
  ///
  /// An identity, not a reference: a subscription must not keep its actor
  /// alive (an actor that subscribes itself as a target would never die),
  /// and a walk compares it without touching reference counts. The lane of
  /// the actor holds it weakly; see ``_EventLane``.
  let isolation: ObjectIdentifier?
  let handler: _EventHandler

  /// What an ended subscription's entry keeps until the storage compacts,
  /// once its handler and captures are released.
  static var ended: _Subscriber { _Subscriber(isolation: nil, handler: { _, _ in }) }
}

extension Optional where Wrapped == any Actor {
  /// The identity subscriptions record for this isolation.
  var key: ObjectIdentifier? { map { ObjectIdentifier($0) } }
}

/// One send, waiting its turn on a lane: the value, and which registrations
/// it reaches (those made before the one numbered `end`, as when it was
/// sent).
///
/// The value is held as `Any`, so that the lanes, their queues and the
/// sends' bookkeeping are one type, compiled once in this module, whatever
/// the event's value: generic code over it would look its types up at run
/// time on every send. A value of up to three words fits in the `Any`
/// without an allocation.
struct _EventJob: @unchecked Sendable {
  // @unchecked Sendable: a job goes to another isolation only to reach the
  // subscriptions made there. With a `Sendable` value that is what the types
  // promise. With any other value the event is not `Sendable`, so it, its
  // sender and its subscriptions share one region, which at most one actor
  // owns: the job carries the value to that actor, and the sender, which ran
  // isolated to no actor, cannot reach the value concurrently from a task of
  // its own. The delivery tests send from many tasks and threads under
  // ThreadSanitizer.
  let value: Any
  let end: UInt64
}

/// The subscriptions made from one isolation, and the sends waiting for
/// them: one serial queue, delivered on that isolation.
///
/// The lane holds its actor weakly, so that subscribing keeps no actor
/// alive. While a live subscription of the lane exists, the lane stays (see
/// ``_EventCore/settle(_:from:)``); when its actor is gone, no one is left to
/// hear the lane, and its sends are dropped.
final class _EventLane: Sendable {
  /// The actor's identity, or `nil` for subscriptions made where no actor
  /// is: what the subscriptions of the lane record.
  let key: ObjectIdentifier?
  /// The actor, while it lives, unless it is the main actor. (A class, so
  /// that handing a lane around copies no weak reference.)
  private weak let otherActor: (any Actor)?
  /// Whether the actor is the main actor, which lives as long as the
  /// process: it needs no weak reference (whose side table a leak checker
  /// would take for a leak).
  private let isMainActor: Bool
  let queue = _DeliveryQueue<_EventJob>()

  init(actor: (any Actor)?) {
    key = actor.key
    isMainActor = actor === MainActor.shared
    otherActor = isMainActor ? nil : actor
  }

  /// The actor, while it lives.
  var actor: (any Actor)? { isMainActor ? MainActor.shared : otherActor }

  /// Whether the lane belongs to an actor that is gone.
  var isOrphaned: Bool { key != nil && actor == nil }
}

/// The isolation to act as, for code that cannot know its own (a property's
/// setter, a `deinit`): the main actor on the main thread, where Swift runs
/// it, and otherwise none.
///
/// Code that knows its isolation (`#isolation`) goes by that alone, even when
/// it is `nil` on the main thread, as ``MulticastDelegate/onMainActor(isolation:_:)``
/// does: what the compiler knows decides, the same on every platform.
func _isolationOfUnknownCaller() -> (any Actor)? {
  _multicast_is_main_thread() ? MainActor.shared : nil
}

/// An object no subscription records as its isolation, since it is no
/// actor: what a walk matches when it serves one lane only.
private final class _NoLane: Sendable {}
private let noLane: ObjectIdentifier? = ObjectIdentifier(_NoLane.instance)

extension _NoLane {
  static let instance = _NoLane()
}

/// The lanes a send delivers where it runs: the lane of subscriptions made
/// where no actor is, and the lane of the sender's own isolation, either of
/// which may be missing.
struct _LocalSend {
  typealias Job = _EventJob

  /// One lane the send claimed, and what the claim said.
  struct Claimed {
    let lane: _EventLane
    let claim: _DeliveryQueue<Job>.Claim
    /// The sends to deliver now, oldest first, when the claim is `deliver`.
    var batch: [Job]
  }

  let job: Job
  var first: Claimed?
  var second: Claimed?
}

/// The registry behind one event: the shared storage, with its lanes and the
/// owner's first- and last-observer notices.
///
/// Each registration holds an object weakly and lasts while it lives: the
/// target of a subscription bound to one; otherwise the core itself, and the
/// subscription ends when its ``Subscription`` is released or cancelled.
///
/// # Lanes
///
/// Each subscription records the isolation it was made from, and its handler
/// runs there. The subscriptions of one isolation form a lane, with a serial
/// ``_DeliveryQueue`` of the sends bound for it. A send delivers at once the
/// lanes it can reach where it runs (its own isolation's, and the lane of
/// subscriptions made where no actor is), one walk for both, and queues the
/// send on every other lane, whose queue is drained on its actor. A lane that
/// a delivery finds empty is dropped.
final class _EventCore<Value>: _SubscriptionSource, @unchecked Sendable {
  // @unchecked Sendable: `notices` and `lanes` are read and written only with
  // the storage's lock held; the storage and the queues are thread-safe. The
  // handlers and the owner's notices are not `Sendable`, and they are called
  // only where they belong: a handler on the isolation its subscription was
  // made from (by one thread at a time, for subscriptions made where no actor
  // is), a notice on the owner's isolation. The delivery tests exercise this
  // from many tasks and threads under ThreadSanitizer.

  /// The value a send lends its handlers: `pointer` points to a `Value`.
  @inline(__always)
  static func value(at pointer: UnsafeRawPointer) -> Value {
    pointer.assumingMemoryBound(to: Value.self).pointee
  }

  let storage = _HandleRegistry<_Subscriber>()
  /// The identity of the isolation the event's owner made it in, where its
  /// notices run, or `nil` for none.
  private let ownerKey: ObjectIdentifier?
  /// That actor, while it lives, unless it is the main actor: the event
  /// must not keep its owner alive.
  private weak let otherOwner: (any Actor)?
  /// Whether the owner's isolation is the main actor, which needs no weak
  /// reference.
  private let isOwnedByMainActor: Bool

  /// The owner's actor, while it lives.
  private var owner: (any Actor)? { isOwnedByMainActor ? MainActor.shared : otherOwner }
  private let onFirstObserver: (() -> Void)?
  private let onLastObserverGone: (() -> Void)?
  /// The transitions between no live subscription and some, and which of
  /// them the owner has been told of; read and written only with the
  /// storage's lock held, in the critical section of the change that
  /// causes them. (The lock makes access exclusive: no run-time check is
  /// needed, here and for `lanes`.)
  @exclusivity(unchecked) private var notices = _OccupancyNotices()
  /// One lane per isolation with subscriptions; read and written only with
  /// the storage's lock held, so that a send sees the lane of every
  /// registration it reaches.
  @exclusivity(unchecked) private var lanes: [_EventLane] = []

  init(
    owner: (any Actor)?, onFirstObserver: (() -> Void)?, onLastObserverGone: (() -> Void)?
  ) {
    self.ownerKey = owner.key
    isOwnedByMainActor = owner === MainActor.shared
    otherOwner = isOwnedByMainActor ? nil : owner
    self.onFirstObserver = onFirstObserver
    self.onLastObserverGone = onLastObserverGone
  }

  /// Registers `handler` for as long as `target` lives or, without a
  /// target, for as long as the returned subscription is kept; it runs on
  /// `isolation`.
  ///
  /// Every subscription of the ``Event`` and ``ObservableValue`` faces is
  /// made here.
  func subscribe(
    _ target: AnyObject?, from isolation: (any Actor)?, handler: @escaping _EventHandler
  ) -> Subscription {
    let registration = register(target ?? self, from: isolation, handler: handler)
    return Subscription(
      source: self, registration: registration,
      lifetime: target == nil ? .untilReleased : .whileTargetLives)
  }

  /// Registers `handler`, to run on `isolation`, for as long as `object`
  /// lives, with no subscription to end it earlier.
  func register(
    _ object: AnyObject, from isolation: (any Actor)?, handler: @escaping _EventHandler
  ) -> _Registration {
    let subscriber = _Subscriber(isolation: isolation.key, handler: handler)
    // The caller holds `object`, so the event has a live registration now.
    let (registration, mustNotify) = storage.mutate { state, garbage in
      switch lanes.firstIndex(where: { $0.key == subscriber.isolation }) {
      case nil:
        lanes.append(_EventLane(actor: isolation))
      case let index? where lanes[index].isOrphaned:
        // The lane of a dead actor whose identity this one now has.
        lanes[index] = _EventLane(actor: isolation)
      case _?:
        break
      }
      return (
        state.append(object, payload: subscriber, &garbage), notices.record(isOccupied: true)
      )
    }
    if mustNotify { notifyOwner(from: isolation) }
    return registration
  }

  /// Ends `registration`, if it has not ended.
  func unsubscribe(_ registration: _Registration, from isolation: (any Actor)?) {
    change(from: isolation) { state, garbage in
      _ = state.removeRegistration(
        registration, &garbage, replacingPayloadWith: _Subscriber.ended)
    }
  }

  /// Ends every subscription bound to `target`; returns how many there were.
  func unsubscribeAll(boundTo target: AnyObject, from isolation: (any Actor)?) -> Int {
    change(from: isolation) { state, garbage in
      state.removeAll(heldBy: target, &garbage, replacingPayloadsWith: _Subscriber.ended)
    }
  }

  /// Ends every subscription.
  func unsubscribeAll(from isolation: (any Actor)?) {
    change(from: isolation) { state, garbage in _ = state.removeAll(&garbage) }
  }

  var hasObservers: Bool { !storage.isEmpty }

  // MARK: Sending

  /// Delivers `value` to every subscription: at once to those on lanes
  /// deliverable from `isolation`, queued for the others.
  func send(_ value: Value, from isolation: (any Actor)?) {
    var local = prepare(value, from: isolation)
    deliver(&local, value, from: isolation)
  }

  /// Queues `value` on every lane that `isolation` cannot deliver, and claims
  /// the others, in one step that fixes its place in every lane's order:
  /// call it in the critical section that orders the sends, and
  /// ``deliver(_:_:from:)`` after it.
  func prepare(_ value: Value, from isolation: (any Actor)?) -> _LocalSend {
    let (end, lanes) = storage.withLockedState { state in (state.nextSequence, self.lanes) }
    var local = _LocalSend(job: _EventJob(value: value, end: end))
    var unused: [_EventJob] = []
    let here = isolation.key
    for lane in lanes {
      // A lane of no actor, or of the caller's own, is delivered here.
      if lane.key == nil || lane.key == here {
        var batch: [_EventJob] = []
        let claim = lane.queue.claim(local.job, taking: &batch)
        guard claim != .nothing else { continue }
        // `batch` is empty when nothing waited: the send is delivered
        // directly, from its own value.
        let claimed = _LocalSend.Claimed(lane: lane, claim: claim, batch: consume batch)
        if local.first == nil { local.first = claimed } else { local.second = claimed }
      } else if lane.queue.append(local.job, isOnActor: false, taking: &unused) == .schedule {
        scheduleDrain(of: lane)
      }
    }
    return local
  }

  /// Delivers what ``prepare(_:from:)`` claimed, then whatever was queued on
  /// those lanes meanwhile.
  ///
  /// When no claimed lane had sends waiting, one walk serves both lanes, so
  /// their subscriptions are called in the order they were made.
  func deliver(_ local: inout _LocalSend, _ value: Value, from isolation: (any Actor)?) {
    // Each claimed lane is moved out of `local`, so that its batch is
    // uniquely referenced and goes back to its queue without a copy.
    guard var first = local.first else { return }
    local.first = nil
    var second = local.second.take()
    withUnsafePointer(to: value) { value in
      if !first.batch.isEmpty || !(second?.batch.isEmpty ?? true) {
        // Sends waiting on a lane go first: each lane on its own.
        deliver(&first, value, end: local.job.end, from: isolation)
        if var second = second.take() {
          deliver(&second, value, end: local.job.end, from: isolation)
        }
        return
      }
      let reached = walk(
        value, end: local.job.end, first.lane.key, second.map { $0.lane.key } ?? noLane)
      finish(&first, reachedAny: reached.first, from: isolation)
      if var second = second.take() {
        finish(&second, reachedAny: reached.second, from: isolation)
      }
    }
  }

  /// After the walk that delivered a claimed lane's send directly: settles
  /// the lane if the walk reached no one on it, then delivers what was
  /// queued on it meanwhile.
  private func finish(
    _ claimed: inout _LocalSend.Claimed, reachedAny: Bool, from isolation: (any Actor)?
  ) {
    if !reachedAny { settle(claimed.lane, from: isolation) }
    if claimed.claim == .deliver, claimed.lane.queue.nextAfterDirect(&claimed.batch) {
      deliver(&claimed.batch, on: claimed.lane, from: isolation)
    }
  }

  /// Delivers one claimed lane on its own: its batch (sends that waited,
  /// then this one), or this send directly, nested or not.
  private func deliver(
    _ claimed: inout _LocalSend.Claimed, _ value: UnsafePointer<Value>, end: UInt64,
    from isolation: (any Actor)?
  ) {
    if claimed.claim == .deliver, !claimed.batch.isEmpty {
      deliver(&claimed.batch, on: claimed.lane, from: isolation)
    } else {
      let reached = walk(value, end: end, claimed.lane.key, noLane)
      finish(&claimed, reachedAny: reached.first, from: isolation)
    }
  }

  /// Delivers `batch`, then every batch queued behind it, on `lane`.
  private func deliver(
    _ batch: inout [_EventJob], on lane: _EventLane, from isolation: (any Actor)?
  ) {
    repeat {
      deliverBatch(batch, on: lane, from: isolation)
    } while lane.queue.next(&batch)
  }

  /// Delivers each send of `batch` on `lane`, and settles the lane once if
  /// one of them reached no one.
  private func deliverBatch(
    _ batch: [_EventJob], on lane: _EventLane, from isolation: (any Actor)?
  ) {
    var missed = false
    for job in batch where !walk(job, lane.key, noLane).first {
      missed = true
    }
    if missed { settle(lane, from: isolation) }
  }

  /// Calls, with `job`'s value, every live subscription made before it was
  /// sent whose isolation is `first` or `second`, in the order they were
  /// made.
  ///
  /// - Returns: Whether it reached a subscription of each.
  private func walk(
    _ job: _EventJob, _ first: ObjectIdentifier?, _ second: ObjectIdentifier?
  ) -> (first: Bool, second: Bool) {
    // Only this core makes its jobs, each with a `Value`.
    withUnsafePointer(to: job.value as! Value) { walk($0, end: job.end, first, second) }
  }

  /// Calls, with the value at `value`, every live subscription made before
  /// the one numbered `end` whose isolation is `first` or `second`, in the
  /// order they were made.
  ///
  /// - Returns: Whether it reached a subscription of each.
  private func walk(
    _ value: UnsafePointer<Value>, end: UInt64, _ first: ObjectIdentifier?,
    _ second: ObjectIdentifier?
  ) -> (first: Bool, second: Bool) {
    var reached = (first: false, second: false)
    // Other lanes' targets are not even loaded: they belong to other
    // isolations, and loading one would keep it alive here for a moment.
    storage.forEach(
      registeredBefore: end,
      where: { $0.pointee.isolation == first || $0.pointee.isolation == second }
    ) { object, subscriber in
      if subscriber.isolation == first {
        reached.first = true
      } else {
        reached.second = true
      }
      subscriber.handler(object, value)
    }
    return reached
  }

  /// Schedules a task that delivers the sends queued on `lane`, on its
  /// actor.
  private func scheduleDrain(of lane: _EventLane) {
    guard let actor = lane.actor else {
      // Its actor is gone, and no one can hear the lane: drop what waits.
      var batch: [_EventJob] = []
      if lane.queue.startDrain(taking: &batch) {
        while lane.queue.next(&batch) {}
      }
      settle(lane, from: nil)
      return
    }
    if actor === MainActor.shared {
      Task { @MainActor in self.drain(lane, from: MainActor.shared) }
    } else {
      Task { await self.drain(lane, on: actor) }
    }
  }

  private func drain(_ lane: _EventLane, on actor: isolated any Actor) {
    drain(lane, from: actor)
  }

  /// Delivers every send queued on `lane`; call it on the lane's actor,
  /// `isolation`.
  private func drain(_ lane: _EventLane, from isolation: any Actor) {
    var batch: [_EventJob] = []
    guard lane.queue.startDrain(taking: &batch) else { return }
    deliver(&batch, on: lane, from: isolation)
  }

  /// After a delivery on `lane` reached no one: drops the lane if no live
  /// subscription is left on it, and notices, as any change does, whether
  /// the event lost its last live subscription (targets that died).
  private func settle(_ lane: _EventLane, from isolation: (any Actor)?) {
    let witness = change(from: isolation) { state, _ in
      let witness = state.firstLiveObject { $0.isolation == lane.key }
      if witness == nil { lanes.removeAll { $0.queue === lane.queue } }
      return witness
    }
    // The live object found is released here, after unlocking.
    withExtendedLifetime(witness) {}
  }

  /// The queues of the lanes, for tests.
  var queues: [_DeliveryQueue<_EventJob>] {
    storage.withLockedState { _ in lanes.map(\.queue) }
  }

  // MARK: Notices

  /// Makes `body`'s change to the registrations and, in the same critical
  /// section, records whether a live registration is left; then tells the
  /// owner of any transition.
  ///
  /// Deciding under the lock is what makes the notices exact: two threads
  /// that end the last two subscriptions at once cannot both see one left,
  /// or both see none.
  @discardableResult
  private func change<Result>(
    from isolation: (any Actor)?,
    _ body: (inout _HandleRegistry<_Subscriber>.State, inout _HandleRegistry<_Subscriber>.Garbage)
      -> Result
  ) -> Result {
    let here = isolation.key
    let core = ObjectIdentifier(self)
    let (result, mustNotify, witness) = storage.mutate { state, garbage in
      let result = body(&state, &garbage)
      // Whether a live registration is left, loading no target of another
      // isolation: a load keeps its object alive a moment longer, here, and
      // might run its deinitializer here. A closure subscription's
      // registration is held by the core itself, so it lives while the core
      // does. Another actor's targets count as alive: the deliveries on that
      // actor notice their deaths (see `settle`). Targets of this isolation,
      // or of none, are loaded.
      let isOccupied = state.hasRegistration { object, subscriber in
        object == core || (subscriber.isolation != nil && subscriber.isolation != here)
      }
      if isOccupied {
        return (result, notices.record(isOccupied: true), nil as AnyObject?)
      }
      let witness = state.firstLiveObject()
      return (result, notices.record(isOccupied: witness != nil), witness)
    }
    // The live object that was found is released here, after unlocking.
    withExtendedLifetime(witness) {}
    if mustNotify { notifyOwner(from: isolation) }
    return result
  }

  /// Tells the owner of the transitions recorded, on the owner's isolation:
  /// at once when the caller runs there (or the owner has none), otherwise
  /// from a task on it.
  private func notifyOwner(from isolation: (any Actor)?) {
    guard let ownerKey, ownerKey != isolation.key else {
      tellOwner()
      return
    }
    guard let owner else {
      // The owner is gone: no one is left to tell.
      storage.withLockedState { _ in while notices.takeNext() != nil {} }
      return
    }
    if owner === MainActor.shared {
      Task { @MainActor in self.tellOwner() }
    } else {
      Task { await self.tellOwner(on: owner) }
    }
  }

  private func tellOwner(on actor: isolated any Actor) {
    tellOwner()
  }

  /// Tells the owner of every transition recorded and not yet told of, in
  /// order, one at a time, with no lock held.
  ///
  /// Only one thread does this at a time: a transition recorded meanwhile, on
  /// this thread (by a notice that subscribes) or another, is told by this
  /// loop, after the notice that is running.
  private func tellOwner() {
    while let becameObserved = storage.withLockedState({ _ in notices.takeNext() }) {
      if becameObserved {
        onFirstObserver?()
      } else {
        onLastObserverGone?()
      }
    }
  }
}

/// The transitions of an event between no live subscription and some, as
/// recorded under the storage's lock, and how many of them the owner has been
/// told of.
///
/// Transitions alternate, starting with the first observer: the k-th (from 0)
/// is to "observed" when k is even.
struct _OccupancyNotices {
  /// The transitions recorded.
  private(set) var recorded: UInt64 = 0
  /// The transitions the owner has been told of, or is being told of.
  private(set) var told: UInt64 = 0
  /// Whether a thread is telling the owner, or a task is scheduled to.
  private(set) var isTelling = false

  /// Whether the event had a live subscription when last looked at: after
  /// an odd number of transitions, since they alternate from none.
  var isOccupied: Bool { recorded % 2 == 1 }

  /// Records whether the event has a live subscription now.
  ///
  /// - Returns: Whether the caller must tell the owner (``takeNext()`` until
  ///   it returns `nil`): a transition was recorded and no one else is
  ///   telling.
  mutating func record(isOccupied: Bool) -> Bool {
    guard isOccupied != self.isOccupied else { return false }
    recorded += 1
    guard !isTelling else { return false }
    isTelling = true
    return true
  }

  /// The next transition to tell the owner of: `true` for the first observer,
  /// `false` for the last one gone; or `nil`, when all are told, and the
  /// caller stops telling.
  mutating func takeNext() -> Bool? {
    guard told < recorded else {
      isTelling = false
      return nil
    }
    told += 1
    return told % 2 == 1
  }
}
