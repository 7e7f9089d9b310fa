// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import _MulticastAtomics

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
  /// Registers `handler` for the values `mode` says, on `isolation`.
  ///
  /// It lasts while `target` lives or, with none, while its subscription is
  /// kept: every subscription of an event or a value. Given `.latest`, it
  /// registers for every value here: callers register it in ``latestOnly()``,
  /// which coalesces them.
  @usableFromInline
  func register(
    _ target: AnyObject?, from isolation: (any Actor)?, _ mode: _SubscriptionMode,
    handler: _Handler
  ) -> _Registration {
    switch mode {
    case .everyValue, .latest:
      register(target, from: isolation, handler: handler, startingWithLatest: false)
    case .once:
      registerOnce(target, from: isolation, handler: handler)
    case .startingWithLatest:
      register(target, from: isolation, handler: handler, startingWithLatest: true)
    }
  }

  /// Registers `handler` on `isolation` while `target` lives or, with none,
  /// while its subscription is kept; it hears the latest value first if
  /// `startingWithLatest` or the core replays.
  private func register(
    _ target: AnyObject?, from isolation: (any Actor)?, handler: _Handler,
    startingWithLatest: Bool
  ) -> _Registration {
    register(
      target ?? self, from: isolation, handler: handler, startingWithLatest: startingWithLatest
    ) { _ in }
  }

  /// ``register(_:from:_:handler:)`` for one value: the registration ends
  /// before `handler` runs, once, whoever sends and however many wait.
  private func registerOnce(
    _ target: AnyObject?, from isolation: (any Actor)?, handler: _Handler
  ) -> _Registration {
    let once = Once()
    // The first to end the registration wins: this call, or a cancel on another
    // thread after the walk reached it. The core calls handlers only while it lives.
    let handler = _Handler.bound { [unowned self] object, value in
      guard unsubscribe(once.registration, from: nil) else { return }
      handler(object, value, pairOffset: pairOffset)
    }
    return register(
      target ?? self, from: isolation, handler: handler, startingWithLatest: false
    ) { once.registration = $0 }
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

/// What an event subscription ends: its event's core, through a protocol so
/// that a subscription needs neither a generic parameter nor a closure.
protocol _SubscriptionSource: AnyObject, Sendable {
  /// Ends `registration` from the caller's `isolation`; true if this ended it.
  @discardableResult
  func unsubscribe(_ registration: _Registration, from isolation: (any Actor)?) -> Bool
}

extension _Registration {
  /// Whether the handle whose word is at `ended` ended its registration.
  static func isEnded(_ ended: UnsafeMutablePointer<UInt64>) -> Bool {
    _multicast_load_acquire(ended) != 0
  }

  /// Ends the registration in `source` unless the handle whose word is at
  /// `ended` did.
  ///
  /// The word is set once it has ended, not before: a call that
  /// finds it set returns after that end, as if it had ended it itself. Two
  /// that race both end it, which is harmless: ending it again does nothing.
  func end(
    in source: () -> (any _SubscriptionSource)?, from isolation: (any Actor)?,
    marking ended: UnsafeMutablePointer<UInt64>
  ) {
    guard !Self.isEnded(ended) else { return }
    source()?.unsubscribe(self, from: isolation)
    _multicast_store_release(ended, 1)
  }
}
