// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// Registering and removing: steps of a mutation.

extension _ObserverStorage.State {
  static var minimumCapacity: Int { 4 }

  /// Appends a registration, making room first if the buffer is full; returns its number.
  @discardableResult
  mutating func register(
    _ object: AnyObject, payload: consuming Payload, _ garbage: inout _ObserverStorage.Garbage
  ) -> UInt64 {
    checkWriting()
    if buffer.isFull { makeRoom(&garbage) }
    let sequence = nextSequence
    buffer.append(
      object, isHost: ObjectIdentifier(object) == hostKey, payload: consume payload,
      stamp: _EntryStamp(sequence: sequence))
    nextSequence += 1
    registrationsSinceSweep += 1
    // Sweep before the next registration makes the buffer grow.
    if buffer.isFull && isSweepDue { readers.setSweepWanted(true) }
    return sequence
  }

  /// Whether the registration at `position` is the host's: alive, with no weak reference.
  func isHeldByHost(_ position: Int) -> Bool {
    buffer.entry(at: position).pointee.key == hostKey
  }

  /// The object at `position`, if alive; release it after unlocking.
  func object(at position: Int) -> AnyObject? {
    if isHeldByHost(position), let host { return host.takeUnretainedValue() }
    return buffer.entry(at: position).pointee.object
  }

  /// Counts a removal and leaves a tombstone; call ``compactIfSparse(_:)`` after the last (I9).
  mutating func remove(at position: Int) {
    removals &+= 1
    leaveTombstone(at: position)
  }

  /// Flags the entry removed, unfiles it and tells `guarded`; counts no removal (a sweep's).
  mutating func leaveTombstone(at position: Int) {
    let stamp = buffer.stamp(at: position)
    precondition(!stamp.isRemoved, "removing a removed entry")
    if Guarded.hearsRemovals { guarded.removed(buffer.payload(at: position)) }
    buffer.setStamp(stamp.adding(_EntryStamp.removedFlag), at: position)
    buffer.unfile(at: position)
    tombstones += 1
  }

  mutating func removeAll(_ garbage: inout _ObserverStorage.Garbage) -> Bool {
    var removed = false
    for position in 0..<buffer.count where !buffer.stamp(at: position).isRemoved {
      remove(at: position)
      removed = true
    }
    compactIfSparse(&garbage)
    return removed
  }

  /// Whether a sweep is due (README.md, section 5).
  var isSweepDue: Bool {
    registrationsSinceSweep >= 2 * Swift.max(liveAtLastSweep, Self.minimumCapacity)
  }
}
