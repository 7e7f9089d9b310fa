// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A value whose observers hear each change, with the old and the new value.
///
/// ```swift
/// let volume = ObservableValue(0.5)
/// let subscription = volume.observe { old, new in print(old, "->", new) }
/// volume.value = 0.7  // prints "0.5 -> 0.7"
/// ```
///
/// Every assignment is delivered, even one that does not change the value.
/// Observers are called in the order they subscribed, under the contract of
/// ``EventSender``; an observer that assigns the value during a delivery starts
/// a nested delivery, which finishes before the outer one goes on.
///
/// `ObservableValue` is not `Sendable`: keep it and its observers in one
/// isolation domain, such as the main actor.
public final class ObservableValue<Value> {
  private let sender = EventSender<(old: Value, new: Value)>()

  /// The current value.
  ///
  /// Setting it calls every observer with the old and the
  /// new value.
  public var value: Value {
    didSet { sender.send((oldValue, value)) }
  }

  /// Creates an observable value.
  ///
  /// - Parameter value: The initial value.
  public init(_ value: Value) {
    self.value = value
  }

  /// The changes, as an event: for the ways to observe that an ``Event``
  /// offers, such as its ``Event/values`` stream.
  public var changes: Event<(old: Value, new: Value)> { sender.event }

  /// Calls `handler` with the old and the new value at each change, for as
  /// long as you keep the returned subscription.
  ///
  /// - Parameter handler: What to do with each change.
  /// - Returns: The subscription: releasing it or cancelling it ends it.
  /// - Complexity: Amortized O(1).
  public func observe(_ handler: @escaping (_ old: Value, _ new: Value) -> Void) -> Subscription {
    changes.observe { change in handler(change.old, change.new) }
  }

  /// Calls `handler` with `target` and the old and the new value at each
  /// change, for as long as `target` lives or until ``removeObservers(_:)``.
  ///
  /// - Parameters:
  ///   - target: The object that observes; held weakly.
  ///   - handler: What to do with the target and each change.
  /// - Returns: A subscription that can end it early; discarding it changes
  ///   nothing.
  /// - Complexity: Amortized O(1).
  @discardableResult
  public func observe<Target: AnyObject>(
    _ target: Target, _ handler: @escaping (Target, _ old: Value, _ new: Value) -> Void
  ) -> Subscription {
    changes.observe(target) { target, change in handler(target, change.old, change.new) }
  }

  /// Ends every subscription bound to `target`.
  ///
  /// - Parameter target: The object whose subscriptions end.
  /// - Returns: How many subscriptions ended.
  /// - Complexity: O(n), where n is the number of subscriptions.
  @discardableResult
  public func removeObservers(_ target: AnyObject) -> Int {
    changes.removeObservers(target)
  }
}
