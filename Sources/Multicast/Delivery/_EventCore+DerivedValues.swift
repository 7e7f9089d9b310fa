// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What a derived value's core does beside an event core's (README.md, section 4): keep
/// its connection while a subscription is made, and send only through it (D11).
extension _EventCore {
  /// Registers for a value's changes from its current value, as
  /// ``register(_:from:_:handler:)`` does: a derived value's with the connection held
  /// (``_UpstreamLink/holding(_:)``).
  func registerFromCurrentValue(
    _ target: AnyObject?, from isolation: (any Actor)?, handler: _Handler
  ) -> _Registration {
    guard let upstream else {
      return register(target, from: isolation, .startingWithLatest, handler: handler)
    }
    return upstream.holding {
      register(target, from: isolation, .startingWithLatest, handler: handler)
    }
  }

  /// A derived value's connection, for its ``_UpstreamLink``: the current number while it
  /// has registrations or `isHeld`, else as ``connectionIfObserved()``, which forgets the
  /// latest value, to release once no lock is held.
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

  /// Makes `value` the latest value, telling no one, if `connection` is current and none
  /// is known; true if the core has one of `connection`.
  func start(with value: Value, through connection: UInt64) -> Bool {
    withLatest { state, latest in
      guard state.connection == connection else { return false }
      if latest == nil { latest = value }
      return true
    }
  }

  /// Decides, as ``prepare(from:into:_:)`` does from no actor, a send of the value
  /// `makeValue` makes from the latest, if `connection` is current; true if decided.
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

extension _Derivation {
  /// Makes the derived value's core, whose first source's core is `first`, connected
  /// upstream while it has registrations or a subscription being made holds it (D11).
  func makeCore(first: AnyObject) -> Core {
    let link = _UpstreamLink(source: first)
    let core = Core(
      owner: nil, onFirstObserver: nil,
      onLastObserverGone: {
        link.update()
        // Read while observed, the value may now be made from the sources.
        self.tellReaders()
      },
      pairOffset: MemoryLayout<(old: Output, new: Output)>.offset(of: \.new)!,
      upstream: link, mergeChanges: Core.mergingChanges)
    link.connection = { [unowned core] isHeld in core.valueConnection(isHeld: isHeld) }
    link.subscribe = { [unowned(unsafe) core] first, number, garbage in
      // Alive here, since it connects from its own registrations.
      self.connect(first, number, core: core, into: &garbage)
    }
    link.unsubscribe = { _, _, garbage in self.disconnect(into: &garbage) }
    link.connectFurther = { [unowned core] _ in self.connectFurther(core) }
    return core
  }
}
