// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// Registrations keyed by their object's identity, at most one per object:
// what `MulticastDelegate` keeps.

extension _ObserverStorage {
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
      let buffer = state.buffer
      if let position = buffer.index!.position(of: key, in: buffer.entries) {
        // The caller holds `object`, so this load cannot release the last
        // reference to a live object.
        if buffer.entries[position].object === object { return false }
        state.markRemoved(at: position)
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
      let buffer = state.buffer
      guard let position = buffer.index!.position(of: key, in: buffer.entries) else { return }
      state.markRemoved(at: position)
      state.compactIfSparse(&garbage)
    }
  }

  /// Whether `object` is registered.
  ///
  /// - Complexity: O(1).
  func contains(_ object: AnyObject) -> Bool {
    read { state in
      let buffer = state.buffer
      guard let position = buffer.index!.position(of: ObjectIdentifier(object), in: buffer.entries)
      else { return false }
      // As in `insert`: the caller holds `object`, so the loaded reference
      // is not the last one to a live object.
      return buffer.entries[position].object === object
    }
  }
}
