// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension ObservableValueProtocol {
  /// Calls `handler` with the old and the new value at the next change,
  /// once, then ends the subscription.
  ///
  /// The subscription ends before `handler` runs, as with
  /// ``Event/observeOnce(isolation:_:)``: `handler` runs once, however many
  /// threads change the value at once.
  ///
  /// - Parameters:
  ///   - isolation: The caller's isolation, where `handler` runs; leave the
  ///     default.
  ///   - handler: What to do with the next change.
  /// - Returns: The subscription: releasing it or cancelling it before a
  ///   change ends it without a call.
  /// - Complexity: Amortized O(1).
  @inlinable
  public func observeOnce(
    isolation: isolated (any Actor)? = #isolation,
    _ handler: @escaping (_ old: Value, _ new: Value) -> Void
  ) -> EventSubscription {
    changes.core.subscribeToValue(
      nil, from: isolation, .once, handler: .erasing(pair: handler))
  }

  /// Calls `handler` with `target` and the old and the new value at the next
  /// change, once, if `target` is still alive, then ends the subscription.
  ///
  /// The value holds `target` weakly, as the target form of
  /// ``observe(_:delivering:isolation:_:)`` does, and the subscription ends when
  /// `target` does if no change came first. It ends before `handler` runs,
  /// as with ``observeOnce(isolation:_:)``: `handler` runs once, however many
  /// threads change the value at once.
  ///
  /// ```swift
  /// final class Banner {
  ///   init(connection: ObservableValue<String>) {
  ///     connection.observeOnce(self) { banner, old, new in print(old, "->", new) }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - target: The object that hears the change; held weakly.
  ///   - isolation: The caller's isolation, where `handler` runs; leave the
  ///     default.
  ///   - handler: What to do with the target and the next change.
  /// - Returns: A subscription that can end it early; discarding it changes
  ///   nothing.
  /// - Complexity: Amortized O(1).
  @inlinable
  @discardableResult
  public func observeOnce<Target: AnyObject>(
    _ target: Target, isolation: isolated (any Actor)? = #isolation,
    _ handler: @escaping (Target, _ old: Value, _ new: Value) -> Void
  ) -> EventSubscription {
    changes.core.subscribeToValue(
      target, from: isolation, .once, handler: .erasing(boundPair: handler))
  }
}
