// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Where a broadcast is: the buffer it reads, the next position, the position
/// it stops before, and the first sequence number it must not visit.
@usableFromInline
struct _BroadcastCursor<Payload, Index: _EntryIndex> {
  @usableFromInline var buffer: _ObserverBuffer<Payload, Index>
  /// The buffer's entries and payloads, unchecked: the broadcast reads only
  /// below `endPosition`, which is at most the buffer's count when it was
  /// read.
  @usableFromInline var entries: UnsafeMutablePointer<_ObserverEntry>
  @usableFromInline var payloads: UnsafeMutablePointer<Payload>
  @usableFromInline var position: Int
  /// The position the broadcast stops before.
  @usableFromInline var endPosition: Int
  /// The sequence number that the next registration after the broadcast
  /// began got: entries from it on are not visited.
  @usableFromInline let end: UInt64
  /// The counter in the readers' slots that counts the broadcast, in the
  /// epoch it began in.
  @usableFromInline var counter: UnsafeMutablePointer<UInt64>

  @inlinable
  init(
    buffer: _ObserverBuffer<Payload, Index>, position: Int, endPosition: Int, end: UInt64,
    counter: UnsafeMutablePointer<UInt64>
  ) {
    self.buffer = buffer
    self.entries = buffer.entries
    self.payloads = buffer.payloads
    self.position = position
    self.endPosition = endPosition
    self.end = end
    self.counter = counter
  }
}

extension _ObserverStorage {
  /// Calls `body` with each live registration that existed when the call
  /// began and is not removed before its turn, in registration order, with no
  /// lock held.
  ///
  /// Everything here is inlined into the caller and specialized for its
  /// payload: a broadcast makes no call but to the lock, the weak load and
  /// `body`, and leaves with one atomic decrement.
  @inlinable
  func forEach(
    _ body: (_ object: consuming AnyObject, _ payload: Payload) throws -> Void
  ) rethrows {
    try forEach(from: beginBroadcast(), body)
  }

  /// Calls `body` with each live registration made before the one numbered
  /// `end` and not removed before its turn, as ``forEach(_:)`` does: a
  /// broadcast made earlier and delivered now.
  @inlinable
  func forEach(
    registeredBefore end: UInt64,
    _ body: (_ object: consuming AnyObject, _ payload: Payload) throws -> Void
  ) rethrows {
    try forEach(from: beginBroadcast(registeredBefore: end), body)
  }

  /// Calls `body` with each live registration from `start` on.
  ///
  /// A registration of the storage's owner (see ``setOwner(_:)``) holds no
  /// weak reference, and is not reached here: walk a storage with an owner
  /// with ``forEach(from:where:holding:_:)``.
  @inlinable
  func forEach(
    from start: _BroadcastCursor<Payload, Index>,
    _ body: (_ object: consuming AnyObject, _ payload: Payload) throws -> Void
  ) rethrows {
    assert(state.pointee.ownerKey == nil, "a walk that skips the owner's registrations")
    var cursor = start
    defer { endBroadcast(cursor) }
    while cursor.position < cursor.endPosition {
      let stamp = cursor.buffer.stamp(at: cursor.position)
      if _fastPath(stamp.isRegisteredHere) {
        if let object = cursor.entries[cursor.position].object {
          try body(object, cursor.payloads[cursor.position])
        }
      } else if !stamp.isRemoved {
        // Moved: go on in the buffer that replaced this one.
        relocate(&cursor, to: stamp.sequence)
        continue
      }
      cursor.position += 1
    }
  }

  /// Calls `body` with each live registration from `start` on whose payload
  /// satisfies `isIncluded`, as ``forEach(from:_:)`` does; the others'
  /// objects are not loaded at all.
  ///
  /// `isIncluded` and `body` get a pointer to the payload, valid during the
  /// call, so that they can read what they need in place: a payload stays
  /// alive while a broadcast reads its buffer (it is released only when no
  /// broadcast reads the buffer, or copied to a replacing buffer while the
  /// old one keeps its own until its last reader leaves), so the walk need
  /// not copy it. A registration that holds `alive`, an object the caller
  /// keeps alive through the call, gets it lent, without a load of its weak
  /// reference, which could only return it: the object's identity is
  /// compared instead. (No other object can have had that identity since the
  /// registration was made: `alive` lived all along.) In a storage with an
  /// owner, pass the owner: its registrations hold no weak reference at all.
  @inlinable
  func forEach(
    from start: _BroadcastCursor<Payload, Index>,
    where isIncluded: (UnsafePointer<Payload>) -> Bool, holding alive: AnyObject,
    _ body: (_ object: borrowing AnyObject, _ payload: UnsafePointer<Payload>) throws -> Void
  ) rethrows {
    var cursor = start
    defer { endBroadcast(cursor) }
    let aliveKey = ObjectIdentifier(alive)
    assert(
      state.pointee.ownerKey.map { $0 == aliveKey } ?? true,
      "a walk of a storage with an owner lends another object")
    while cursor.position < cursor.endPosition {
      let stamp = cursor.buffer.stamp(at: cursor.position)
      if _fastPath(stamp.isRegisteredHere) {
        if isIncluded(cursor.payloads + cursor.position) {
          if cursor.entries[cursor.position].key == aliveKey {
            try body(alive, cursor.payloads + cursor.position)
          } else if let object = cursor.entries[cursor.position].object {
            try body(object, cursor.payloads + cursor.position)
          }
        }
      } else if !stamp.isRemoved {
        // Moved: go on in the buffer that replaced this one.
        relocate(&cursor, to: stamp.sequence)
        continue
      }
      cursor.position += 1
    }
  }
}
