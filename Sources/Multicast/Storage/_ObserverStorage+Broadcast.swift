// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Where a broadcast is, and where it stops.
@usableFromInline
struct _BroadcastCursor<Payload, Index: _EntryIndex> {
  @usableFromInline var buffer: _ObserverBuffer<Payload, Index>
  /// `buffer`'s entries and payloads, unchecked: read below `endPosition`, a count it had (I3, I4).
  @usableFromInline var entries: UnsafeMutablePointer<_ObserverEntry>
  @usableFromInline var payloads: UnsafeMutablePointer<Payload>
  @usableFromInline var position: Int
  /// The position it stops before.
  @usableFromInline var endPosition: Int
  /// The first sequence number it must not visit (I3).
  @usableFromInline let end: UInt64
  /// The reader counter that counts the broadcast, for `buffer`'s epoch.
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

/// What a walk found: the live it called, and the dead (died unremoved) it met.
@usableFromInline
struct _WalkTally {
  @usableFromInline var live = 0
  @usableFromInline var dead = 0

  @inlinable init() {}

  /// Whether the dead cost the walk as much as the living (README.md, section 5).
  @inlinable var isMostlyDead: Bool {
    dead > 0 && (live == 0 || dead >= Swift.max(8, live))
  }
}

extension _ObserverStorage {
  /// Calls `body` with each live registration, in order, with no lock held (README.md, section 3).
  @inlinable
  func forEach(
    _ body: (_ object: consuming AnyObject, _ payload: Payload) throws -> Void
  ) rethrows {
    try forEach(from: beginBroadcast(), body)
  }

  /// Calls `body` as ``forEach(_:)`` does, for the registrations numbered before `end`.
  @inlinable
  func forEach(
    registeredBefore end: UInt64,
    _ body: (_ object: consuming AnyObject, _ payload: Payload) throws -> Void
  ) rethrows {
    try forEach(from: beginBroadcast(registeredBefore: end), body)
  }

  /// Calls `body` with each live registration from `start` on; sweeps if the dead cost too much.
  @inlinable
  func forEach(
    from start: _BroadcastCursor<Payload, Index>,
    _ body: (_ object: consuming AnyObject, _ payload: Payload) throws -> Void
  ) rethrows {
    assert(state.pointee.hostKey == nil, "a walk that skips the host's registrations")
    var cursor = start
    var tally = _WalkTally()
    defer {
      endBroadcast(cursor)
      // The dead cost no later broadcast.
      if _slowPath(tally.dead > 0) { _ = sweep(after: tally) }
    }
    while cursor.position < cursor.endPosition {
      let stamp = cursor.buffer.stamp(at: cursor.position)
      if _fastPath(stamp.isRegisteredHere) {
        if let object = cursor.entries[cursor.position].object {
          tally.live &+= 1
          try body(object, cursor.payloads[cursor.position])
        } else {
          tally.dead &+= 1
        }
      } else if !stamp.isRemoved {
        // I5: moved; go on in the buffer that replaced this one.
        relocate(&cursor, to: stamp.sequence)
        continue
      }
      cursor.position += 1
    }
  }

  /// Calls `body` with each live registration from `start` on that `isIncluded`, loading no
  /// other's object and lending `alive` to those it holds; returns the tally.
  ///
  /// Payload pointers are valid during the call (I4). With a host, pass the host.
  @inlinable @discardableResult
  func forEach(
    from start: _BroadcastCursor<Payload, Index>,
    where isIncluded: (UnsafePointer<Payload>) -> Bool, holding alive: AnyObject,
    _ body: (_ object: borrowing AnyObject, _ payload: UnsafePointer<Payload>) throws -> Void
  ) rethrows -> _WalkTally {
    var cursor = start
    var tally = _WalkTally()
    defer { endBroadcast(cursor) }
    let aliveKey = ObjectIdentifier(alive)
    assert(
      state.pointee.hostKey.map { $0 == aliveKey } ?? true,
      "a walk of a storage with a host lends another object")
    while cursor.position < cursor.endPosition {
      let stamp = cursor.buffer.stamp(at: cursor.position)
      if _fastPath(stamp.isRegisteredHere) {
        if isIncluded(cursor.payloads + cursor.position) {
          if cursor.entries[cursor.position].key == aliveKey {
            tally.live &+= 1
            try body(alive, cursor.payloads + cursor.position)
          } else if let object = cursor.entries[cursor.position].object {
            tally.live &+= 1
            try body(object, cursor.payloads + cursor.position)
          } else {
            tally.dead &+= 1
          }
        }
      } else if !stamp.isRemoved {
        // I5: moved; go on in the buffer that replaced this one.
        relocate(&cursor, to: stamp.sequence)
        continue
      }
      cursor.position += 1
    }
    return tally
  }
}
