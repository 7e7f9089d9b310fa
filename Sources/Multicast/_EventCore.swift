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
  /// registration holds weakly (the target, or the core itself).
  typealias Handler = (AnyObject, Value) -> Void

  let storage = _ObserverStorage<Handler>(keyed: false)
  private let onFirstObserver: (() -> Void)?
  private let onLastObserverGone: (() -> Void)?
  /// Whether the owner was last told that the event has observers.
  private var isObserved = false

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
    let registration = storage.append(object, payload: handler)
    if !isObserved {
      isObserved = true
      onFirstObserver?()
    }
    return registration
  }

  /// Ends `registration`, if it has not ended.
  func unsubscribe(_ registration: _Registration) {
    if storage.removeRegistration(registration) { noticeIfUnobserved() }
  }

  /// Ends every subscription bound to `target`; returns how many there were.
  func unsubscribeAll(boundTo target: AnyObject) -> Int {
    let removed = storage.removeAll(heldBy: target)
    if removed > 0 { noticeIfUnobserved() }
    return removed
  }

  /// Ends every subscription.
  func unsubscribeAll() {
    if storage.removeAll() { noticeIfUnobserved() }
  }

  func send(_ value: Value) {
    var delivered = false
    storage.forEach { object, handler in
      delivered = true
      handler(object, value)
    }
    // Observers that died unseen are noticed here, when no one was reached.
    if !delivered { noticeIfUnobserved() }
  }

  var hasObservers: Bool { !storage.isEmpty }

  private func noticeIfUnobserved() {
    guard isObserved, storage.isEmpty else { return }
    isObserved = false
    onLastObserverGone?()
  }
}
