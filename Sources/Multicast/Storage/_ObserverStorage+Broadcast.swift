// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import _MulticastAtomics

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

  /// Starts a broadcast: counts it among the readers, so that no entry it
  /// may read moves, and no buffer it may read is freed, until it leaves.
  ///
  /// It takes no lock: see ``beginBroadcastWithoutLock()``. It takes the lock
  /// only when a critical section runs meanwhile, or the first time a
  /// thread other than the first broadcasts (to make the slots).
  @inlinable
  func beginBroadcast() -> _BroadcastCursor<Payload, Index> {
    if let cursor = beginBroadcastWithoutLock() { return cursor }
    return beginBroadcastLocked()
  }

  /// Starts a broadcast without the lock, as _ReaderSlots describes: counts
  /// it in the calling thread's slot, reads the buffer, its count and the
  /// next sequence number, and checks that no critical section ran
  /// meanwhile.
  ///
  /// - Returns: The broadcast begun, or `nil`, having changed nothing, if
  ///   the thread has no slot yet or a critical section ran meanwhile.
  @inlinable
  func beginBroadcastWithoutLock() -> _BroadcastCursor<Payload, Index>? {
    let readers = self.readers
    let version = _multicast_load_acquire(readers.words + _ReaderSlots.versionWord)
    guard version & _ReaderSlots.busyBit == 0, let slot = readers.slotOfCallingThread() else {
      return nil
    }
    #if DEBUG
    state.pointee.beforeCounting?()
    #endif
    #if MULTICAST_INTERNAL_CHECKS
    readers.widenRaceWindow(after: version)
    #endif
    let counter = slot + Int(version & 1)
    _ = _multicast_fetch_add_seq_cst(counter, 1)
    let base = _multicast_load_relaxed(readers.words + _ReaderSlots.bufferWord)
    let count = _multicast_load_relaxed(readers.words + _ReaderSlots.countWord)
    let end = _multicast_load_relaxed(readers.words + _ReaderSlots.nextSequenceWord)
    #if DEBUG
    state.pointee.afterReadingWords?()
    #endif
    _multicast_fence_acquire()
    guard _multicast_load_seq_cst(readers.words + _ReaderSlots.versionWord) == version else {
      if readers.uncount(counter) { reclaim() }
      return nil
    }
    // Checked: the buffer was current, with that count, when the broadcast
    // was counted, in the epoch every section that could free it looks at.
    return _BroadcastCursor(
      buffer: Buffer(base: UnsafeMutableRawPointer(bitPattern: UInt(base)).unsafelyUnwrapped),
      position: 0, endPosition: Int(truncatingIfNeeded: count), end: end, counter: counter)
  }

  /// Starts a broadcast with the lock held, and makes the slots of threads
  /// other than the first, so that they begin without it next time.
  @usableFromInline
  func beginBroadcastLocked() -> _BroadcastCursor<Payload, Index> {
    withLockedState(changing: false) { state in
      state.readers.makeSpread()
      return state.beginBroadcast()
    }
  }

  /// Starts a broadcast of the registrations made before the one numbered
  /// `end`.
  @inlinable
  func beginBroadcast(registeredBefore end: UInt64) -> _BroadcastCursor<Payload, Index> {
    withLockedState(changing: false) { state in
      let buffer = state.buffer
      // Sequence numbers only grow, so `end` is at most `nextSequence`.
      return _BroadcastCursor(
        buffer: buffer, position: 0,
        endPosition: buffer.position(ofFirst: end, below: buffer.count),
        end: end, counter: state.countBroadcast())
    }
  }

  /// Starts a broadcast of the registrations made before the one numbered
  /// `end`, at most `reading`'s end, in the buffer that `reading` reads,
  /// without the lock: a broadcast under way keeps its buffer from being
  /// freed, so another may join it, counted with it.
  ///
  /// - Complexity: O(log n), where n is the number of registrations.
  @inlinable
  func beginBroadcast(
    alongside reading: _BroadcastCursor<Payload, Index>, registeredBefore end: UInt64
  ) -> _BroadcastCursor<Payload, Index> {
    precondition(end <= reading.end, "a broadcast joined one that does not reach its end")
    _ = _multicast_fetch_add_seq_cst(reading.counter, 1)
    return _BroadcastCursor(
      buffer: reading.buffer, position: 0,
      endPosition: reading.buffer.position(ofFirst: end, below: reading.endPosition), end: end,
      counter: reading.counter)
  }

  /// Ends a broadcast: takes it off the readers, without the lock unless
  /// buffers wait to be freed.
  @inlinable
  func endBroadcast(_ cursor: _BroadcastCursor<Payload, Index>) {
    if _slowPath(readers.uncount(cursor.counter)) { reclaim() }
  }

  /// Frees the replaced buffers that no broadcast reads any more, and flips
  /// the epoch if that is what they wait for.
  ///
  /// Freeing changes nothing that a broadcast begun without the lock reads,
  /// so it only takes the lock; a flip, in a second section, marks the
  /// version busy.
  @usableFromInline
  func reclaim() {
    var garbage = Garbage()
    let mustFlip = withLockedState(changing: false) { state in
      state.reclaim(&garbage, flipping: false)
    }
    if mustFlip {
      withLockedState { state in _ = state.reclaim(&garbage, flipping: true) }
    }
    _ = consume garbage
  }

  /// Moves `cursor` from a replaced buffer to the current one, at the first
  /// entry whose sequence is at least `sequence`, counted in the current
  /// epoch.
  @usableFromInline
  func relocate(_ cursor: inout _BroadcastCursor<Payload, Index>, to sequence: UInt64) {
    let exited = cursor.counter
    let end = cursor.end
    cursor = mutate { state, garbage in
      let current = state.buffer
      let relocated = _BroadcastCursor(
        buffer: current,
        position: current.position(ofFirst: sequence, below: current.count),
        endPosition: current.position(ofFirst: end, below: current.count),
        end: end, counter: state.countBroadcast())
      if state.readers.uncount(exited) { _ = state.reclaim(&garbage, flipping: true) }
      return relocated
    }
  }
}

extension _ObserverStorage.State {
  /// Starts a broadcast of every registration made so far, as
  /// ``_ObserverStorage/beginBroadcast()`` does, in a critical section the
  /// caller holds; the caller ends it with
  /// ``_ObserverStorage/endBroadcast(_:)``, with or without the lock.
  @inlinable @inline(__always)
  func beginBroadcast() -> _BroadcastCursor<Payload, Index> {
    _BroadcastCursor(
      buffer: buffer, position: 0, endPosition: buffer.count, end: nextSequence,
      counter: countBroadcast())
  }
}
