// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// Questions about the registrations as a whole, answered at one instant.
//
// A broadcast's rule (the registrations present when it began, minus those
// removed before their turn) would be wrong here: it mixes two moments. A
// count that began before another thread added one observer and removed
// another could skip both, and answer a number that the registrations never
// had. So each query looks at the registrations with the lock held from its
// first entry to its last: no registration or removal can happen in between,
// and the answer is the one the registrations gave at that instant.
//
// Telling a live entry from a dead one means loading its weak reference,
// which returns a strong one (except for the owner's own entries, which have
// none and are alive: see `setOwner`). The query keeps those until it has unlocked:
// if another thread dropped its own reference meanwhile, releasing ours would
// run the observer's deinitializer, which may call back into this storage.
// An observer that dies while a query looks may or may not be counted: a
// death only takes observers away, so either answer is one the registrations
// gave at some instant during the call.

extension _ObserverStorage {
  /// The number of live registrations, at one instant.
  ///
  /// - Complexity: O(n), where n is the number of registrations, with the lock
  ///   held throughout. The references it keeps until unlocking take scratch
  ///   space on the stack, or on the heap for a large registry.
  var liveCount: Int {
    lock.lock()
    let buffer = state.pointee.buffer
    return withUnsafeTemporaryAllocation(of: AnyObject.self, capacity: buffer.count) { loaded in
      var count = 0
      var ownerCount = 0
      for position in 0..<buffer.count where !buffer.stamp(at: position).isRemoved {
        if state.pointee.isHeldByOwner(position) {
          ownerCount += 1
        } else if let object = buffer.entry(at: position).pointee.object {
          (loaded.baseAddress! + count).initialize(to: object)
          count += 1
        }
      }
      lock.unlock()
      loaded.baseAddress?.deinitialize(count: count)
      return count + ownerCount
    }
  }

  /// Whether there is no live registration, at one instant.
  ///
  /// - Complexity: O(1) when the first registration is alive; O(n) with the
  ///   lock held when dead ones come first.
  var isEmpty: Bool {
    // The reference is released here, after `withLock` has unlocked.
    let liveObject = lock.withLock { state.pointee.firstLiveObject() }
    return liveObject == nil
  }
}

extension _ObserverStorage.State {
  /// The object of the first live registration, or `nil` if there is none.
  ///
  /// Call with the lock held, and release the result after unlocking.
  ///
  /// - Complexity: O(1) when the first registration is alive; O(n) when dead
  ///   or removed ones come first.
  func firstLiveObject() -> AnyObject? {
    firstLiveObject { _ in true }
  }

  /// Whether a registration held by `object` is not removed: then it is
  /// alive as long as `object` is, which the caller knows, and no weak
  /// reference needs loading.
  ///
  /// - Complexity: O(n), where n is the number of registrations.
  func hasRegistration(heldBy object: AnyObject) -> Bool {
    let key = ObjectIdentifier(object)
    return hasRegistration { entryKey, _ in entryKey == key }
  }

  /// Whether a registration that is not removed satisfies `predicate`,
  /// given its object's identity and its payload; no weak reference is
  /// loaded.
  ///
  /// - Complexity: O(n), where n is the number of registrations.
  func hasRegistration(where predicate: (ObjectIdentifier, Payload) -> Bool) -> Bool {
    for position in 0..<buffer.count where !buffer.stamp(at: position).isRemoved {
      if predicate(buffer.entry(at: position).pointee.key, buffer.payload(at: position).pointee) {
        return true
      }
    }
    return false
  }

  /// The object of the first live registration whose payload satisfies
  /// `predicate`, or `nil` if there is none.
  ///
  /// Call with the lock held, and release the result after unlocking.
  ///
  /// - Complexity: O(n), where n is the number of registrations.
  func firstLiveObject(where predicate: (Payload) -> Bool) -> AnyObject? {
    for position in 0..<buffer.count
    where !buffer.stamp(at: position).isRemoved && predicate(buffer.payload(at: position).pointee) {
      if let object = object(at: position) { return object }
    }
    return nil
  }
}

extension _ObserverStorage {
  /// The first live registration numbered from `sequence` to before `end`.
  ///
  /// Returns its object, payload and number, or `nil` if there is none. The
  /// object is a strong reference, released by the caller, after unlocking.
  ///
  /// What a broadcast that awaits each observer reads, one observer at a
  /// time, so that it holds no lock and no buffer across an await. (It
  /// reaches no registration of an owner, which a `MulticastDelegate`'s
  /// storage never has.)
  ///
  /// - Complexity: O(log n), plus the removed or dead registrations skipped.
  @inlinable
  func firstLive(
    from sequence: UInt64, before end: UInt64
  ) -> (object: AnyObject, payload: Payload, sequence: UInt64)? {
    withLockedState { state in
      assert(state.ownerKey == nil, "a query that skips the owner's registrations")
      let buffer = state.buffer
      var position = buffer.position(ofFirst: sequence, below: buffer.count)
      while position < buffer.count {
        let stamp = buffer.stamp(at: position)
        guard stamp.sequence < end else { return nil }
        if !stamp.isRemoved, let object = buffer.entry(at: position).pointee.object {
          return (object, buffer.payload(at: position).pointee, stamp.sequence)
        }
        position += 1
      }
      return nil
    }
  }

  /// The number the next registration will get: a broadcast made now
  /// reaches the registrations numbered below it.
  @inlinable
  var nextSequence: UInt64 {
    withLockedState { $0.nextSequence }
  }
}
