// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What a derived value's core does beside an event core's: keep its
/// connection upstream while a subscription is being made (a value's
/// current value is read in the registration's section, so it must be
/// known before), take its first value, and make its changes from its
/// latest one, through its connection only (D11).
extension _EventCore {
  /// A derived value's connection, asked by its ``_UpstreamLink``: the
  /// number of the current one while it has registrations or `isHeld`;
  /// otherwise the connection numbered anew and the latest value forgotten,
  /// as ``connectionIfObserved()`` does.
  ///
  /// - Returns: Also the value forgotten, to release once no lock is held.
  func valueConnection(isHeld: Bool) -> (number: UInt64?, forgotten: Any?) {
    withLatest { state, latest in
      if state.isUsed || isHeld { return (state.connection, nil) }
      state.connection &+= 1
      return (nil, latest.take())
    }
  }

  /// The latest value, if one is known for the current connection.
  func latestValue() -> Value? {
    withLatest { _, latest in latest }
  }

  /// Makes `value` the latest value, telling no one, if `connection` is
  /// current and no latest value is known.
  ///
  /// - Returns: Whether the core has a latest value of `connection` now.
  func start(with value: Value, through connection: UInt64) -> Bool {
    withLatest { state, latest in
      guard state.connection == connection else { return false }
      if latest == nil { latest = value }
      return true
    }
  }

  /// Decides, as ``prepare(from:into:_:)`` does from no actor, a send of the
  /// value `makeValue` makes from the latest one, if `connection` is
  /// current; otherwise leaves `local` uninitialized.
  ///
  /// - Returns: Whether the send was decided: then ``deliver(_:_:)`` it.
  func prepare(
    through connection: UInt64, into local: UnsafeMutablePointer<_LocalSend>,
    _ makeValue: (inout _CoreState, _ latest: inout Value?) -> Value
  ) -> Bool {
    withReadingSection { state, latest in
      guard state.guarded.connection == connection else { return false }
      arrive(makeValue(&state.guarded, &latest), &state, from: nil, into: local)
      return true
    }
  }
}
