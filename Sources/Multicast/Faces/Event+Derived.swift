// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension Event {
  /// An event that sends, for each value this one sends, what `transform`
  /// makes of it.
  ///
  /// ```swift
  /// let celsius = readings.event
  /// let fahrenheit = celsius.map { $0 * 9 / 5 + 32 }
  /// let shown = fahrenheit.observe { print($0, "°F") }
  /// ```
  ///
  /// The derived event subscribes to this one only while it has
  /// subscriptions: its first subscription subscribes it, and its last one
  /// gone (cancelled, released, or a dead target noticed at the next send)
  /// ends that. It is kept alive by its subscriptions, so
  /// `event.map(f).observe(...)` lasts as long as the subscription.
  ///
  /// Its subscriptions keep every rule of an event's: each runs on the
  /// isolation it was made from, hears the values in the order they were
  /// sent here, and a target is held weakly. The derived event sends each
  /// value from the thread that delivers it here, as code isolated to no
  /// actor does: at once to subscriptions of the actor that thread runs
  /// on, queued for the others. A send on the main actor, with nothing else
  /// under way, reaches the derived event's main-actor subscriptions before
  /// it returns.
  ///
  /// A subscription hears every value sent here after ``observe(delivering:isolation:_:)``
  /// (or any other way to subscribe) returns. When this event replays its
  /// latest value (a sender made with ``EventSender/init(replaysLatest:)``),
  /// so does the derived one: a new subscription hears first what
  /// `transform` made of it.
  ///
  /// `transform` runs once per value, whatever the number of subscriptions,
  /// on the thread that delivers the value, so it must be `Sendable`; keep it
  /// quick and free of side effects.
  ///
  /// - Parameter transform: What to send for each value.
  /// - Returns: The derived event.
  /// - Complexity: O(1). Each value sent costs a send on the derived event,
  ///   which allocates nothing beyond what `transform` does.
  @inlinable
  public func map<Output>(_ transform: @escaping @Sendable (Value) -> Output) -> Event<Output> {
    Event<Output>(
      core: core.derive { value, derived in
        derived.send(transform(_EventCore<Value>.value(at: value)))
      })
  }

  /// An event that sends the values of this one that `isIncluded` accepts.
  ///
  /// The derived event subscribes to this one only while it has
  /// subscriptions, and keeps every delivery rule, as with ``map(_:)``. It
  /// replays the latest value when this event does, if `isIncluded`
  /// accepts it.
  ///
  /// - Parameter isIncluded: Whether to send a value; runs once per value.
  /// - Returns: The derived event.
  /// - Complexity: O(1).
  @inlinable
  public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Event<Value> {
    Event(
      core: core.derive { value, derived in
        let value = _EventCore<Value>.value(at: value)
        if isIncluded(value) {
          derived.send(value)
        } else {
          derived.forgetLatest()
        }
      })
  }

  /// An event that sends, for each value this one sends, what `transform`
  /// makes of it, when that is not `nil`.
  ///
  /// The derived event subscribes to this one only while it has
  /// subscriptions, and keeps every delivery rule, as with ``map(_:)``. It
  /// replays the latest value when this event does, if `transform` makes
  /// something of it.
  ///
  /// - Parameter transform: What to send for each value, or `nil` to send
  ///   nothing; runs once per value.
  /// - Returns: The derived event.
  /// - Complexity: O(1).
  @inlinable
  public func compactMap<Output>(
    _ transform: @escaping @Sendable (Value) -> Output?
  ) -> Event<Output> {
    Event<Output>(
      core: core.derive { value, derived in
        if let output = transform(_EventCore<Value>.value(at: value)) {
          derived.send(output)
        } else {
          derived.forgetLatest()
        }
      })
  }
}
