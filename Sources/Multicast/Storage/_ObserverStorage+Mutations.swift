// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// Registering and removing: steps of a mutation, with the lock held.

extension _ObserverStorage.State {
  static var minimumCapacity: Int { 4 }

  /// Appends a registration, making room first if the buffer is full.
  ///
  /// - Returns: The new entry's sequence number.
  @discardableResult
  mutating func register(
    _ object: AnyObject, payload: Payload, _ garbage: inout _ObserverStorage.Garbage
  ) -> UInt64 {
    #if MULTICAST_INTERNAL_CHECKS
    checkWriting()
    #endif
    if buffer.isFull { makeRoom(&garbage) }
    let sequence = nextSequence
    buffer.append(
      object, isOwner: ObjectIdentifier(object) == ownerKey, payload: payload,
      stamp: _EntryStamp(sequence: sequence))
    nextSequence += 1
    registrationsSinceSweep += 1
    // The next registration would make the buffer grow: this mutation
    // sweeps once it has unlocked.
    if buffer.isFull && isSweepDue { readers.setSweepWanted(true) }
    return sequence
  }

  /// Whether the registration at `position` is held by the storage's owner:
  /// alive whenever the storage is used, with no weak reference to load.
  func isHeldByOwner(_ position: Int) -> Bool {
    buffer.entry(at: position).pointee.key == ownerKey
  }

  /// The object of the registration at `position`, as a strong reference,
  /// or `nil` if it is gone.
  ///
  /// Call with the lock held, and release the result after unlocking.
  func object(at position: Int) -> AnyObject? {
    if isHeldByOwner(position), let owner { return owner.takeUnretainedValue() }
    return buffer.entry(at: position).pointee.object
  }

  /// Flags the entry at `position` removed and takes it out of the index.
  ///
  /// Broadcasts under way see the flag and skip the entry. Call
  /// ``compactIfSparse(_:)`` once the mutation's removals are done.
  mutating func remove(at position: Int) {
    removals &+= 1
    leaveTombstone(at: position)
  }

  /// Flags the entry at `position` removed, as ``remove(at:)`` does,
  /// without counting a removal: a sweep's, of a registration already dead.
  mutating func leaveTombstone(at position: Int) {
    let stamp = buffer.stamp(at: position)
    precondition(!stamp.isRemoved, "removing a removed entry")
    buffer.setStamp(stamp.adding(_EntryStamp.removedFlag), at: position)
    buffer.unfile(at: position)
    tombstones += 1
  }

  /// Removes every registration.
  ///
  /// - Returns: Whether any was registered.
  mutating func removeAll(_ garbage: inout _ObserverStorage.Garbage) -> Bool {
    var removed = false
    for position in 0..<buffer.count where !buffer.stamp(at: position).isRemoved {
      remove(at: position)
      removed = true
    }
    compactIfSparse(&garbage)
    return removed
  }

  /// Whether the buffer should be swept before it grows or is compacted:
  /// once there have been twice as many registrations since the last sweep
  /// as there were live observers then.
  ///
  /// Between sweeps, then, the buffer holds the observers alive at the last
  /// sweep and about twice as many again at most, whichever of them died
  /// (registrations on other threads while a sweep walks, without the lock,
  /// may add one growth before the next sweep), and
  /// each sweep, O(n), follows at least n/3 registrations. A sweep loads
  /// every weak reference, which costs several times what moving an entry
  /// does; at twice rather than once, observers that come and go at a
  /// steady number pay half a load each, not one.
  var isSweepDue: Bool {
    registrationsSinceSweep >= 2 * Swift.max(liveAtLastSweep, Self.minimumCapacity)
  }
}
