// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What a ``Subscription`` ends: its event's core, seen through a protocol so
/// that a subscription needs neither a generic parameter nor a closure.
protocol _SubscriptionSource: AnyObject {
  /// Ends `registration`, if it has not ended.
  func unsubscribe(_ registration: _Registration)
}

/// The registry behind one event: the shared storage, with the owner's first-
/// and last-observer notices.
///
/// Each registration holds an object weakly and lasts while it lives: the
/// target of a subscription bound to one; otherwise the core itself, and the
/// subscription ends when its ``Subscription`` is released or cancelled.
final class _EventCore<Value>: _SubscriptionSource {
  /// What a subscription does with a value: it gets the object its
  /// registration holds weakly (the target, or the core itself) and the
  /// value, lent by a pointer (read it with ``value(at:)``).
  ///
  /// The value's type is erased so that every event keeps the same storage
  /// type, compiled once in this module: storage code generic over `Value`
  /// would look its types up at run time on every send unless the caller's
  /// module specialized it.
  typealias Handler = (AnyObject, UnsafeRawPointer) -> Void

  /// The value a send lends its handlers: `pointer` points to a `Value`,
  /// made by ``send(_:)``.
  @inline(__always)
  static func value(at pointer: UnsafeRawPointer) -> Value {
    pointer.assumingMemoryBound(to: Value.self).pointee
  }

  let storage = _HandleRegistry<Handler>()
  private let onFirstObserver: (() -> Void)?
  private let onLastObserverGone: (() -> Void)?
  /// The transitions between no live subscription and some, and which of
  /// them the owner has been told of; read and written only with the
  /// storage's lock held, in the critical section of the change that
  /// causes them.
  private var notices = _OccupancyNotices()

  init(onFirstObserver: (() -> Void)?, onLastObserverGone: (() -> Void)?) {
    self.onFirstObserver = onFirstObserver
    self.onLastObserverGone = onLastObserverGone
  }

  /// Registers `handler` for as long as `target` lives or, without a
  /// target, for as long as the returned subscription is kept.
  ///
  /// Every subscription of the ``Event`` and ``ObservableValue`` faces is
  /// made here.
  func subscribe(_ target: AnyObject?, handler: @escaping Handler) -> Subscription {
    let registration = register(target ?? self, handler: handler)
    return Subscription(
      source: self, registration: registration,
      lifetime: target == nil ? .untilReleased : .whileTargetLives)
  }

  /// Registers `handler` for as long as `object` lives, with no
  /// subscription to end it earlier.
  func register(_ object: AnyObject, handler: @escaping Handler) -> _Registration {
    // The caller holds `object`, so the event has a live registration now.
    let (registration, mustNotify) = storage.mutate { state, garbage in
      (state.append(object, payload: handler, &garbage), notices.record(isOccupied: true))
    }
    if mustNotify { notifyOwner() }
    return registration
  }

  /// Ends `registration`, if it has not ended.
  func unsubscribe(_ registration: _Registration) {
    change { state, garbage in _ = state.removeRegistration(registration, &garbage) }
  }

  /// Ends every subscription bound to `target`; returns how many there were.
  func unsubscribeAll(boundTo target: AnyObject) -> Int {
    change { state, garbage in state.removeAll(heldBy: target, &garbage) }
  }

  /// Ends every subscription.
  func unsubscribeAll() {
    change { state, garbage in _ = state.removeAll(&garbage) }
  }

  func send(_ value: Value) {
    var delivered = false
    withUnsafePointer(to: value) { value in
      storage.forEach { object, handler in
        delivered = true
        handler(object, value)
      }
    }
    // Observers that died unseen are noticed here, when no one was reached.
    if !delivered { change { _, _ in } }
  }

  var hasObservers: Bool { !storage.isEmpty }

  /// Makes `body`'s change to the registrations and, in the same critical
  /// section, records whether a live registration is left; then tells the
  /// owner of any transition.
  ///
  /// Deciding under the lock is what makes the notices exact: two threads
  /// that end the last two subscriptions at once cannot both see one left,
  /// or both see none.
  private func change<Result>(
    _ body: (inout _HandleRegistry<Handler>.State, inout _HandleRegistry<Handler>.Garbage)
      -> Result
  ) -> Result {
    let (result, mustNotify, witness) = storage.mutate { state, garbage in
      let result = body(&state, &garbage)
      let witness = state.firstLiveObject()
      return (result, notices.record(isOccupied: witness != nil), witness)
    }
    // The live object that was found is released here, after unlocking.
    withExtendedLifetime(witness) {}
    if mustNotify { notifyOwner() }
    return result
  }

  /// Tells the owner of every transition recorded and not yet told of, in
  /// order, one at a time, with no lock held.
  ///
  /// Only one thread does this at a time: a transition recorded meanwhile, on
  /// this thread (by a notice that subscribes) or another, is told by this
  /// loop, after the notice that is running.
  private func notifyOwner() {
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
  /// Whether a thread is telling the owner.
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
