// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension Event {
  /// Calls `handler` with the next value sent, once, then ends the
  /// subscription.
  ///
  /// The subscription ends before `handler` runs: a value that `handler`
  /// sends, or one sent meanwhile by another thread, does not reach it.
  /// However many threads send at once, `handler` runs once. Until then,
  /// the subscription lasts as long as you keep the returned one, as with
  /// ``observe(delivering:isolation:_:)``.
  ///
  /// ```swift
  /// let finished = EventSender<String>()
  /// let first = finished.event.observeOnce { print("first download:", $0) }
  /// finished.send("a.zip")  // prints "first download: a.zip"
  /// finished.send("b.zip")  // prints nothing
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: The caller's isolation, where `handler` runs; leave the
  ///     default.
  ///   - handler: What to do with the next value.
  /// - Returns: The subscription: releasing it or cancelling it before a
  ///   value is sent ends it without a call.
  /// - Complexity: Amortized O(1).
  @inlinable
  public func observeOnce(
    isolation: isolated (any Actor)? = #isolation, _ handler: @escaping (Value) -> Void
  ) -> EventSubscription {
    core.subscribe(nil, from: isolation, .once, handler: .erasing(value: handler))
  }

  /// Calls `handler` with `target` and the next value sent, once, if
  /// `target` is still alive, then ends the subscription.
  ///
  /// The event holds `target` weakly, as the target form of `observe` does,
  /// and the subscription ends when `target` does if no value came first.
  ///
  /// - Parameters:
  ///   - target: The object that hears the event; held weakly.
  ///   - isolation: The caller's isolation, where `handler` runs; leave the
  ///     default.
  ///   - handler: What to do with the target and the next value.
  /// - Returns: A subscription that can end it early; discarding it changes
  ///   nothing.
  /// - Complexity: Amortized O(1).
  @inlinable
  @discardableResult
  public func observeOnce<Target: AnyObject>(
    _ target: Target, isolation: isolated (any Actor)? = #isolation,
    _ handler: @escaping (Target, Value) -> Void
  ) -> EventSubscription {
    core.subscribe(target, from: isolation, .once, handler: .erasing(bound: handler))
  }
}
