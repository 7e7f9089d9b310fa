// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension ObservableValueProtocol where Value: Equatable {
  /// Calls `handler` with the old and the new value at each change, leaving
  /// out, when `removingDuplicates` is `true`, an assignment of a value equal
  /// to the one it replaces, as Combine's `removeDuplicates()` does.
  ///
  /// ```swift
  /// let isMuted = ObservableValue(false)
  /// let subscription = isMuted.observe(removingDuplicates: true) { old, new in
  ///   print(old, "->", new)
  /// }
  /// isMuted.value = true  // false -> true
  /// isMuted.value = true  // nothing: the value did not change
  /// isMuted.value = false  // true -> false
  /// subscription.cancel()
  /// ```
  ///
  /// Each change is compared with the value it replaced, which was read in
  /// the same critical section as the assignment, so the changes heard form
  /// an unbroken chain (each one's `old` is the previous one's `new`)
  /// however many threads assign at once. The comparison runs where
  /// `handler` runs, on the isolation the subscription was made from, so
  /// `Value`'s `Equatable` conformance may be isolated to that actor, as a
  /// type's is in a module with main-actor isolation by default.
  ///
  /// Every other subscription, and Observation's readers, still hear every
  /// assignment. Where `Value` is `Sendable`, `changes.filter { $0.old !=
  /// $0.new }` gives the same changes as an ``Event``, for the forms an
  /// event has.
  ///
  /// - Parameters:
  ///   - removingDuplicates: Whether to leave out a change to an equal value.
  ///   - isolation: The caller's isolation, where `handler` runs; leave the
  ///     default.
  ///   - handler: What to do with each change.
  /// - Returns: The subscription: releasing it or cancelling it ends it.
  /// - Complexity: Amortized O(1).
  @inlinable
  public func observe(
    removingDuplicates: Bool, isolation: isolated (any Actor)? = #isolation,
    _ handler: @escaping (_ old: Value, _ new: Value) -> Void
  ) -> EventSubscription {
    guard removingDuplicates else { return observe(isolation: isolation, handler) }
    return observe(isolation: isolation) { old, new in
      if old != new { handler(old, new) }
    }
  }

  /// Calls `handler` with `target` and the old and the new value at each
  /// change, leaving out, when `removingDuplicates` is `true`, an assignment
  /// of a value equal to the one it replaces; for as long as `target` lives
  /// or until ``removeObservers(_:isolation:)``.
  ///
  /// The comparison runs where `handler` runs, as with
  /// ``observe(removingDuplicates:isolation:_:)``.
  ///
  /// - Parameters:
  ///   - target: The object that observes; held weakly.
  ///   - removingDuplicates: Whether to leave out a change to an equal value.
  ///   - isolation: The caller's isolation, where `handler` runs; leave the
  ///     default.
  ///   - handler: What to do with the target and each change.
  /// - Returns: A subscription that can end it early; discarding it changes
  ///   nothing.
  /// - Complexity: Amortized O(1).
  @inlinable
  @discardableResult
  public func observe<Target: AnyObject>(
    _ target: Target, removingDuplicates: Bool, isolation: isolated (any Actor)? = #isolation,
    _ handler: @escaping (Target, _ old: Value, _ new: Value) -> Void
  ) -> EventSubscription {
    guard removingDuplicates else { return observe(target, isolation: isolation, handler) }
    return observe(target, isolation: isolation) { target, old, new in
      if old != new { handler(target, old, new) }
    }
  }
}
