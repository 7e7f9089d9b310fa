// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// The registry behind one event: the shared storage, keyed by subscription,
/// with the owner's first- and last-observer notices.
final class _EventCore<Value> {
  /// What a subscription does with a value: it gets the object its
  /// registration holds weakly (the token, the target or the core itself).
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

  /// Registers `handler` for as long as `object` lives.
  func subscribe(_ object: AnyObject, handler: @escaping Handler) -> _Registration {
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

  /// Ends every subscription held by `owner`; returns how many there were.
  func unsubscribeAll(heldBy owner: AnyObject) -> Int {
    let removed = storage.removeAll(heldBy: owner)
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
