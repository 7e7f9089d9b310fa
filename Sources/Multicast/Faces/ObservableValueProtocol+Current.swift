// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension ObservableValueProtocol {
  /// Calls `handler` with the current value, then with each new value, for
  /// as long as you keep the returned subscription.
  ///
  /// The current value is read in the same step that subscribes, so no
  /// change is missed or heard twice between it and the first change, even
  /// while other threads assign. It is delivered as a change would be: before
  /// this returns when the caller runs where nothing else is being delivered
  /// to its subscriptions, otherwise in its place, before any later change.
  ///
  /// ```swift
  /// let volume = ObservableValue(0.5)
  /// let shown = volume.observeValue { print("volume", $0) }  // prints "volume 0.5"
  /// volume.value = 0.7  // prints "volume 0.7"
  /// shown.cancel()
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: The caller's isolation, where `handler` runs; leave the
  ///     default.
  ///   - handler: What to do with the current value and each new one.
  /// - Returns: The subscription: releasing it or cancelling it ends it.
  /// - Complexity: Amortized O(1).
  @inlinable
  public func observeValue(
    isolation: isolated (any Actor)? = #isolation, _ handler: @escaping (Value) -> Void
  ) -> EventSubscription {
    changes.core.subscribeToValue(
      nil, from: isolation, .startingWithLatest,
      handler: .erasing(pair: { _, new in handler(new) }))
  }

  /// Calls `handler` with `target` and the current value, then with each new
  /// value, for as long as `target` lives.
  ///
  /// The current value is read in the same step that subscribes, as with
  /// ``observeValue(isolation:_:)``.
  ///
  /// - Parameters:
  ///   - target: The object that observes; held weakly.
  ///   - isolation: The caller's isolation, where `handler` runs; leave the
  ///     default.
  ///   - handler: What to do with the target, the current value and each new
  ///     one.
  /// - Returns: A subscription that can end it early; discarding it changes
  ///   nothing.
  /// - Complexity: Amortized O(1).
  @inlinable
  @discardableResult
  public func observeValue<Target: AnyObject>(
    _ target: Target, isolation: isolated (any Actor)? = #isolation,
    _ handler: @escaping (Target, Value) -> Void
  ) -> EventSubscription {
    changes.core.subscribeToValue(
      target, from: isolation, .startingWithLatest,
      handler: .erasing(boundPair: { target, _, new in handler(target, new) }))
  }
}
