// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// Registering and removing: steps of a mutation.

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
    // Sweep before the next registration makes the buffer grow.
    if buffer.isFull && isSweepDue { readers.setSweepWanted(true) }
    return sequence
  }

  /// Whether the registration at `position` is held by the storage's owner:
  /// alive whenever the storage is used, with no weak reference to load.
  func isHeldByOwner(_ position: Int) -> Bool {
    buffer.entry(at: position).pointee.key == ownerKey
  }

  /// The object of the registration at `position`, if alive; release it
  /// after unlocking.
  func object(at position: Int) -> AnyObject? {
    if isHeldByOwner(position), let owner { return owner.takeUnretainedValue() }
    return buffer.entry(at: position).pointee.object
  }

  /// Counts a removal and leaves a tombstone at `position`; call
  /// ``compactIfSparse(_:)`` once the mutation's removals are done.
  mutating func remove(at position: Int) {
    removals &+= 1
    leaveTombstone(at: position)
  }

  /// Flags the entry at `position` removed, skipped by broadcasts from now
  /// on, and takes it out of the index; counts no removal (a sweep's).
  mutating func leaveTombstone(at position: Int) {
    let stamp = buffer.stamp(at: position)
    precondition(!stamp.isRemoved, "removing a removed entry")
    onRemoval?(&guarded, buffer.payload(at: position))
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

  /// Whether a sweep is due: the registrations since the last sweep are
  /// twice the live ones it found, and at least eight (README.md, section 5).
  var isSweepDue: Bool {
    registrationsSinceSweep >= 2 * Swift.max(liveAtLastSweep, Self.minimumCapacity)
  }
}
