// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Which values a subscription hears.
@usableFromInline
enum _SubscriptionMode {
  /// Every value sent while it lasts.
  case everyValue
  /// The next value sent, once: the subscription ends before its handler runs.
  case once
  /// The latest value (an observable value's current one), then every value.
  case startingWithLatest
  /// Every value, but one still waiting is replaced by a newer one
  /// (``_EventCore/latestOnly()``).
  case latest
}

extension _EventCore {
  /// Registers `handler` for the values `mode` says, on `isolation`, while
  /// `target` lives or, with none, while the subscription is kept: every
  /// subscription of ``Event`` and ``ObservableValue``.
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

  /// ``subscribe(_:from:handler:startingWithLatest:)`` for one value: the
  /// subscription ends before `handler` runs, once, whoever sends and however many wait.
  private func subscribeOnce(
    _ target: AnyObject?, from isolation: (any Actor)?, handler: _Handler
  ) -> EventSubscription {
    let once = Once()
    // The first to end the registration wins: this call, or a cancel on another
    // thread after the walk reached it. The core calls handlers only while it lives.
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

  /// A one-value subscription's registration, which its handler ends before it runs.
  final class Once {
    // Not `Sendable`: touched only by the handler and the registration's section,
    // which writes it; every walk that reaches it begins in a later section.
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
}
