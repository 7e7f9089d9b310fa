// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// The operations of a keyed registry: at most one registration per object,
// found by the object's identity.

extension _ObserverStorage where Index == _PositionIndex {
  /// Registers `object` unless it is already registered.
  ///
  /// An entry under the same key whose object is gone belonged to a dead
  /// object at the same address: it is removed and the new object goes last.
  ///
  /// - Returns: `true` if the object was not registered before.
  /// - Complexity: Amortized O(1).
  @discardableResult
  func insert(_ object: AnyObject, payload: Payload) -> Bool {
    let key = ObjectIdentifier(object)
    return mutate { state, garbage in
      if let position = state.buffer.position(of: key) {
        // The caller holds `object`, so this load cannot release the last
        // reference to a live object.
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
  /// The entry needs no look at its object: if that object is alive it is
  /// `object`, since two live objects never share an address; if it is dead,
  /// the entry is `object`'s own, seen from its deinitializer (where weak
  /// references to it already read `nil`), or an earlier object's at the same
  /// address, and removing it is right in both cases.
  ///
  /// - Complexity: Amortized O(1).
  func remove(_ object: AnyObject) {
    let key = ObjectIdentifier(object)
    mutate { state, garbage in
      guard let position = state.buffer.position(of: key) else { return }
      state.remove(at: position)
      state.compactIfSparse(&garbage)
    }
  }

  /// Whether `object` is registered.
  ///
  /// - Complexity: O(1).
  func contains(_ object: AnyObject) -> Bool {
    read { state in
      guard let position = state.buffer.position(of: ObjectIdentifier(object)) else {
        return false
      }
      // As in `insert`: the caller holds `object`, so the loaded reference
      // is not the last one to a live object.
      return state.buffer.entry(at: position).pointee.object === object
    }
  }
}
