// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _EventCore {
  /// Registers `handler` as ``subscribe(_:from:handler:)`` does, for one
  /// value: the subscription ends before `handler` runs, which it does
  /// once, whoever sends and however many values wait for it.
  @usableFromInline
  func subscribeOnce(
    _ target: AnyObject?, from isolation: (any Actor)?, handler: _Handler
  ) -> EventSubscription {
    let once = _Once()
    // A subscription's handler runs one call at a time, on its isolation, so
    // a second call can come only after the first has ended the
    // registration, and no walk reaches an ended registration. (The core
    // calls its handlers only while it lives.)
    let handler = _Handler.bound { [unowned self] object, value in
      unsubscribe(once.registration, from: nil)
      handler(object, value, pairOffset: pairOffset)
    }
    let registration = register(
      target ?? self, from: isolation, handler: handler, startingWith: nil
    ) { once.registration = $0 }
    return EventSubscription(
      source: self, registration: registration,
      lifetime: target == nil ? .untilReleased : .whileTargetLives)
  }
}

/// What a subscription for one value knows of itself: its registration,
/// which its handler ends before it runs.
@usableFromInline
final class _Once {
  // Not `Sendable`: only the handler, which is not `Sendable` either, and
  // the critical section that makes its registration touch it.
  // `registration` is written once, in the critical section of the
  // storage's lock that makes the registration; every walk that can reach
  // the registration begins in a later critical section of that lock, so
  // every call of the handler reads it after it was written. The once tests
  // send from many threads and tasks at once.
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
