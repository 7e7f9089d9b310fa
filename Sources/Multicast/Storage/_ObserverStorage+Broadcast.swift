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

  @inlinable
  init(buffer: _ObserverBuffer<Payload, Index>, position: Int, endPosition: Int, end: UInt64) {
    self.buffer = buffer
    self.entries = buffer.entries
    self.payloads = buffer.payloads
    self.position = position
    self.endPosition = endPosition
    self.end = end
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
      if _fastPath(stamp.isCurrent) {
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
      if _fastPath(stamp.isCurrent) {
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

  /// Starts a broadcast: counts it among the current buffer's readers, so
  /// that no entry it may read moves until it leaves.
  @inlinable
  func beginBroadcast() -> _BroadcastCursor<Payload, Index> {
    withLockedState { state in state.beginBroadcast() }
  }

  /// Starts a broadcast of the registrations made before the one numbered
  /// `end`.
  @inlinable
  func beginBroadcast(registeredBefore end: UInt64) -> _BroadcastCursor<Payload, Index> {
    withLockedState { state in
      let buffer = state.buffer
      buffer.addReader()
      // Sequence numbers only grow, so `end` is at most `nextSequence`.
      return _BroadcastCursor(
        buffer: buffer, position: 0,
        endPosition: buffer.position(ofFirst: end, below: buffer.count),
        end: end)
    }
  }

  /// Starts a broadcast of the registrations made before the one numbered
  /// `end`, at most `reading`'s end, in the buffer that `reading` reads,
  /// without the lock: a broadcast under way keeps its buffer from being
  /// freed, so another may join it.
  ///
  /// - Complexity: O(log n), where n is the number of registrations.
  @inlinable
  func beginBroadcast(
    alongside reading: _BroadcastCursor<Payload, Index>, registeredBefore end: UInt64
  ) -> _BroadcastCursor<Payload, Index> {
    precondition(end <= reading.end, "a broadcast joined one that does not reach its end")
    reading.buffer.addReader()
    return _BroadcastCursor(
      buffer: reading.buffer, position: 0,
      endPosition: reading.buffer.position(ofFirst: end, below: reading.endPosition), end: end)
  }

  /// Ends a broadcast: leaves the buffer it was reading, without the lock
  /// unless that buffer was retired and this was its last reader.
  ///
  /// No buffer is freed under a reader: a buffer is freed either by the
  /// storage, when it sees no reader with the lock held (and none can join
  /// without it), or by its last reader, after leaving.
  @inlinable
  func endBroadcast(_ cursor: _BroadcastCursor<Payload, Index>) {
    if _slowPath(cursor.buffer.removeReader()) { free(retired: cursor.buffer) }
  }

  /// Takes `buffer`, retired and left by its last reader, off the retired
  /// list and frees it.
  @usableFromInline
  func free(retired buffer: Buffer) {
    withLockedState { state in state.forget(retired: buffer) }
    buffer.deallocate()
  }

  /// Moves `cursor` from a replaced buffer to the current one, at the first
  /// entry whose sequence is at least `sequence`.
  @usableFromInline
  func relocate(_ cursor: inout _BroadcastCursor<Payload, Index>, to sequence: UInt64) {
    let exited = cursor.buffer
    let end = cursor.end
    let (relocated, mustFree) = withLockedState { state in
      let current = state.buffer
      current.addReader()
      let relocated = _BroadcastCursor(
        buffer: current,
        position: current.position(ofFirst: sequence, below: current.count),
        endPosition: current.position(ofFirst: end, below: current.count),
        end: end)
      let mustFree = exited.removeReader()
      if mustFree { state.forget(retired: exited) }
      return (relocated, mustFree)
    }
    cursor = relocated
    if mustFree { exited.deallocate() }
  }
}

extension _ObserverStorage.State {
  /// Starts a broadcast of every registration made so far, as
  /// ``_ObserverStorage/beginBroadcast()`` does, in a critical section the
  /// caller holds; the caller ends it with
  /// ``_ObserverStorage/endBroadcast(_:)``, with or without the lock.
  @inlinable
  func beginBroadcast() -> _BroadcastCursor<Payload, Index> {
    buffer.addReader()
    return _BroadcastCursor(
      buffer: buffer, position: 0, endPosition: buffer.count, end: nextSequence)
  }

  /// Takes a retired buffer that no broadcast reads any more off the retired
  /// list, to be freed after unlocking.
  mutating func forget(retired buffer: _ObserverStorage.Buffer) {
    guard let index = retired.firstIndex(where: { $0.base == buffer.base }) else {
      preconditionFailure("a retired buffer is not on the retired list")
    }
    retired.remove(at: index)
  }
}
