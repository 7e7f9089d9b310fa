// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// Registrations that are their own handles, any number per object: what the
// events keep.

extension _ObserverStorage {
  /// Registers a new entry for `object`.
  ///
  /// - Returns: The registration, the handle to remove it with.
  /// - Complexity: Amortized O(1).
  func append(_ object: AnyObject, payload: Payload) -> _Registration {
    mutate { state, garbage in
      _Registration(sequence: state.register(object, payload: payload, &garbage))
    }
  }

  /// Removes `registration`.
  ///
  /// - Returns: Whether it was registered: `false` if it was removed before,
  ///   or dropped because its object died.
  /// - Complexity: O(log n), where n is the number of registrations.
  @discardableResult
  func removeRegistration(_ registration: _Registration) -> Bool {
    mutate { state, garbage in
      let buffer = state.buffer
      let position = buffer.position(ofFirst: registration.sequence, below: buffer.count)
      guard position < buffer.count else { return false }
      let word = _EntryWord(rawValue: buffer.words[position])
      guard word.sequence == registration.sequence, !word.isRemoved else { return false }
      state.markRemoved(at: position)
      state.compactIfSparse(&garbage)
      return true
    }
  }

  /// Removes every registration held by `object`.
  ///
  /// - Returns: How many were removed.
  /// - Complexity: O(n), where n is the number of registrations.
  @discardableResult
  func removeAll(heldBy object: AnyObject) -> Int {
    let key = ObjectIdentifier(object)
    return mutate { state, garbage in
      let buffer = state.buffer
      var removed = 0
      for position in 0..<buffer.count
      where buffer.entries[position].key == key
        && !_EntryWord(rawValue: buffer.words[position]).isRemoved
      {
        state.markRemoved(at: position)
        removed += 1
      }
      state.compactIfSparse(&garbage)
      return removed
    }
  }
}
