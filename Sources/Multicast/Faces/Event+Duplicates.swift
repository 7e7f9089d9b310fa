// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension Event where Value: Equatable & SendableMetatype {
  /// An event that sends the values of this one that differ from the one
  /// it sent before, as Combine's `removeDuplicates()` does.
  ///
  /// ```swift
  /// let sender = EventSender<Int>()
  /// let shown = sender.event.removeDuplicates().observe { print($0) }
  /// sender.send(1)  // prints 1
  /// sender.send(1)  // prints nothing
  /// sender.send(2)  // prints 2
  /// ```
  ///
  /// The derived event subscribes to this one only while it has
  /// subscriptions, and keeps every delivery rule, as with ``map(_:)``.
  /// Each connection starts anew: the first value sent after it subscribes
  /// is sent, whatever came before. It replays the latest value when this
  /// event does.
  ///
  /// The comparison runs once per value, where the value is delivered to
  /// subscriptions isolated to no actor, so `Value`'s `Equatable`
  /// conformance must not be isolated to an actor (`SendableMetatype`).
  ///
  /// - Returns: The derived event.
  /// - Complexity: O(1). Each value sent costs one comparison.
  public func removeDuplicates() -> Event<Value> {
    let last = LastValue()
    return Event(
      core: core.derive { value, derived in
        let value = _EventCore<Value>.value(at: value)
        if last.isNew(value, through: derived.number) { derived.send(value) }
      })
  }

  /// The value a ``Event/removeDuplicates()`` event last sent, by connection.
  private final class LastValue: @unchecked Sendable {
    // @unchecked Sendable: `last` is reached only with its lock held. One
    // connection's values arrive one at a time, in order; a connection that
    // ended may still forward one while the next starts, which the number
    // tells apart.
    private let last = _Locked<(connection: UInt64, value: Value)?>(nil)

    /// Whether `value` differs from the last one of `connection`, which it
    /// then becomes.
    func isNew(_ value: Value, through connection: UInt64) -> Bool {
      let previous = last.withLock { $0?.connection == connection ? $0?.value : nil }
      // Compared with no lock held: `==` is the caller's code.
      if let previous, previous == value { return false }
      let replaced = last.withLock { last in
        let replaced = last
        last = (connection, value)
        return replaced
      }
      withExtendedLifetime(replaced) {}
      return true
    }
  }
}
