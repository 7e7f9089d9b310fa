// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A value whose observers hear each change, with the old and the new
/// value: an ``ObservableValue``, which you assign, or a ``DerivedValue``,
/// made from others.
///
/// Both offer the same ways to observe: ``observe(delivering:isolation:_:)`` with the
/// old and the new value, ``observeValue(isolation:_:)`` from the current
/// value, ``observeOnce(isolation:_:)``, ``observe(removingDuplicates:isolation:_:)``
/// and the ``changes`` event; and the same ways to derive:
/// ``map(_:)`` and ``combined(with:_:)``. Write a view model or a function
/// against `some ObservableValueProtocol<Bool>` to take either.
///
/// ```swift
/// func show(_ isAudible: some ObservableValueProtocol<Bool>) -> EventSubscription {
///   isAudible.observeValue { print($0 ? "audible" : "silent") }
/// }
/// ```
///
/// Only this module's types conform: each keeps its current value beside
/// its subscriptions, under the contract of ``ObservableValue``.
public protocol ObservableValueProtocol<Value>: AnyObject {
  /// The type of the value.
  associatedtype Value

  /// The current value.
  var value: Value { get }

  /// The changes, as an event: for the ways to observe that an ``Event``
  /// offers, such as its ``Event/values`` stream.
  ///
  /// A stream of the changes ends once nothing can change the value (an
  /// ``ObservableValue`` is released; a ``DerivedValue`` and its first
  /// source are, since it holds its sources), after every change made
  /// before, even while this event is still held. A derived value's
  /// `changes` subscribe to its sources only while they have
  /// subscriptions, as the value's own do.
  var changes: Event<(old: Value, new: Value)> { get }
}

extension ObservableValueProtocol {
  /// Calls `handler` with the old and the new value at each change, for as
  /// long as you keep the returned subscription.
  ///
  /// - Parameters:
  ///   - policy: Whether `handler` hears every change, or only the latest
  ///     (from the value it last heard) when changes come faster than its
  ///     isolation runs it.
  ///   - isolation: The caller's isolation, where `handler` runs; leave the
  ///     default.
  ///   - handler: What to do with each change.
  /// - Returns: The subscription: releasing it or cancelling it ends it.
  /// - Complexity: Amortized O(1).
  @inlinable
  public func observe(
    delivering policy: DeliveryPolicy = .everyValue,
    isolation: isolated (any Actor)? = #isolation,
    _ handler: @escaping (_ old: Value, _ new: Value) -> Void
  ) -> EventSubscription {
    changes.core.subscribeToValue(
      nil, from: isolation, policy.mode, handler: .erasing(pair: handler))
  }

  /// Calls `handler` with `target` and the old and the new value at each
  /// change, for as long as `target` lives or until ``removeObservers(_:isolation:)``.
  ///
  /// - Parameters:
  ///   - target: The object that observes; held weakly (one that observes
  ///     from its own `deinit` is not subscribed).
  ///   - policy: Whether `handler` hears every change, or only the latest
  ///     (from the value it last heard) when changes come faster than its
  ///     isolation runs it.
  ///   - isolation: The caller's isolation, where `handler` runs; leave the
  ///     default.
  ///   - handler: What to do with the target and each change.
  /// - Returns: A subscription that can end it early; discarding it changes
  ///   nothing.
  /// - Complexity: Amortized O(1).
  @inlinable
  @discardableResult
  public func observe<Target: AnyObject>(
    _ target: Target, delivering policy: DeliveryPolicy = .everyValue,
    isolation: isolated (any Actor)? = #isolation,
    _ handler: @escaping (Target, _ old: Value, _ new: Value) -> Void
  ) -> EventSubscription {
    changes.core.subscribeToValue(
      target, from: isolation, policy.mode, handler: .erasing(boundPair: handler))
  }

  /// Calls `handler` on `target`, an actor, with the old and the new value
  /// at each change, for as long as `target` lives.
  ///
  /// Call it on the actor, which the value holds weakly and lends to
  /// `handler` isolated, as ``Event/observe(actor:delivering:_:)`` does.
  ///
  /// - Parameters:
  ///   - target: The actor that observes, isolated to the caller; held
  ///     weakly, except by a delivery on its way to it, as with
  ///     ``Event/observe(actor:delivering:_:)``.
  ///   - policy: Whether `handler` hears every change, or only the latest
  ///     (from the value it last heard) when changes come faster than the
  ///     actor runs it.
  ///   - handler: What to do with the actor and each change, on the actor.
  /// - Returns: A subscription that can end it early; discarding it changes
  ///   nothing.
  /// - Complexity: Amortized O(1).
  @discardableResult
  public func observe<Target: Actor>(
    actor target: isolated Target, delivering policy: DeliveryPolicy = .everyValue,
    _ handler: @escaping (isolated Target, _ old: Value, _ new: Value) -> Void
  ) -> EventSubscription {
    // As in `Event.observe(actor:delivering:_:)`: the handler runs only on `target`.
    changes.core.subscribeToValue(
      target, from: target, policy.mode, handler: .erasing(isolatedPair: handler))
  }

  /// Ends every subscription bound to `target`.
  ///
  /// - Parameters:
  ///   - target: The object whose subscriptions end.
  ///   - isolation: The caller's isolation; leave the default.
  /// - Returns: How many subscriptions ended.
  /// - Complexity: O(n), where n is the number of subscriptions.
  @discardableResult
  public func removeObservers(
    _ target: AnyObject, isolation: isolated (any Actor)? = #isolation
  ) -> Int {
    changes.removeObservers(target, isolation: isolation)
  }
}
