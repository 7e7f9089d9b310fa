// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// The operations of a keyed registry (README.md, section 1).

extension _ObserverStorage where Index == _PositionIndex {
  /// Registers `object` unless it is, removing a dead entry under its key; true if it was not.
  @discardableResult
  func insert(_ object: AnyObject, payload: Payload) -> Bool {
    let key = ObjectIdentifier(object)
    return mutate { state, garbage in
      if let position = state.buffer.position(of: key) {
        // The caller holds `object`: this load releases no last reference.
        if state.buffer.entry(at: position).pointee.object === object { return false }
        state.remove(at: position)
        state.compactIfSparse(&garbage)
      }
      state.register(object, payload: payload, &garbage)
      return true
    }
  }

  /// Removes the registration filed under `object`'s identity.
  ///
  /// No load: the entry under that key is `object`'s, or a dead one that goes either way.
  func remove(_ object: AnyObject) {
    let key = ObjectIdentifier(object)
    mutate { state, garbage in
      guard let position = state.buffer.position(of: key) else { return }
      state.remove(at: position)
      state.compactIfSparse(&garbage)
    }
  }

  /// Whether `object` is registered.
  func contains(_ object: AnyObject) -> Bool {
    read { state in
      guard let position = state.buffer.position(of: ObjectIdentifier(object)) else {
        return false
      }
      // As in `insert`: this load releases no last reference.
      return state.buffer.entry(at: position).pointee.object === object
    }
  }
}
