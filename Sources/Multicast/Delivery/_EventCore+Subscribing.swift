// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Which values a subscription hears.
@usableFromInline
enum _SubscriptionMode {
  /// Every value sent while it lasts.
  case everyValue
  /// The next value sent, once: the subscription ends before its handler
  /// runs.
  case once
  /// The core's latest value as it subscribes (an observable value's
  /// current one), then every value sent.
  case startingWithLatest
  /// The values sent while it lasts, but a value still waiting for its
  /// isolation is replaced by a newer one (``_EventCore/latestOnly()``).
  case latest
}

extension _EventCore {
  /// Registers `handler` to hear the values `mode` says, on `isolation`,
  /// for as long as `target` lives or, without a target, for as long as the
  /// returned subscription is kept.
  ///
  /// Every subscription of the ``Event`` and ``ObservableValue`` faces is
  /// made here.
  @usableFromInline
  func subscribe(
    _ target: AnyObject?, from isolation: (any Actor)?, _ mode: _SubscriptionMode,
    handler: _Handler
  ) -> EventSubscription {
    switch mode {
    case .everyValue:
      subscribe(target, from: isolation, handler: handler)
    case .once:
      subscribeOnce(target, from: isolation, handler: handler)
    case .startingWithLatest:
      subscribe(target, from: isolation, handler: handler, startingWithLatest: true)
    case .latest:
      latestOnly().subscribe(target, from: isolation, handler: handler)
    }
  }

  /// Registers `handler` as ``subscribe(_:from:handler:startingWithLatest:)``
  /// does, for one value: the subscription ends before `handler` runs,
  /// which it does once, whoever sends and however many values wait for it.
  private func subscribeOnce(
    _ target: AnyObject?, from isolation: (any Actor)?, handler: _Handler
  ) -> EventSubscription {
    let once = _Once()
    // Whoever ends the registration first wins: this call, or a cancel on
    // another thread that ended it after the walk reached it. (The core
    // calls its handlers only while it lives.)
    let handler = _Handler.bound { [unowned self] object, value in
      guard unsubscribe(once.registration, from: nil) else { return }
      handler(object, value, pairOffset: pairOffset)
    }
    let registration = register(
      target ?? self, from: isolation, handler: handler, startingWithLatest: false
    ) { once.registration = $0 }
    return EventSubscription(
      source: self, registration: registration,
      lifetime: target == nil ? .untilReleased : .whileTargetLives)
  }
}

/// What a subscription for one value knows of itself: its registration,
/// which its handler ends before it runs.
final class _Once {
  // Not `Sendable`: only the handler and the section that makes the
  // registration touch it. Written in that section; every walk that reaches
  // the registration begins in a later one, so every call reads it written.
  private var _registration: _Registration?

  /// The registration, set by the critical section that makes it.
  var registration: _Registration {
    get {
      guard let _registration else {
        preconditionFailure("a subscription for one value was delivered before it was registered")
      }
      return _registration
    }
    set { _registration = newValue }
  }
}
