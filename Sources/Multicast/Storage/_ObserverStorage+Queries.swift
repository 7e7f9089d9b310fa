// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import _MulticastAtomics

// Answers at one instant, not by a broadcast's rule (README.md, section 5).

extension _ObserverStorage {
  /// The number of live registrations, at one instant.
  var liveCount: Int {
    if let count = countLive(upTo: .max) { return count }
    return lockedLiveCount
  }

  /// Whether there is no live registration, at one instant.
  var isEmpty: Bool {
    if let count = countLive(upTo: 1) { return count == 0 }
    // The reference is released here, after the section has unlocked.
    let liveObject = withReadingSection { $0.firstLiveObject() }
    return liveObject == nil
  }

  /// Counts up to `limit` live registrations without the lock; `nil` if changes keep spoiling it.
  private func countLive(upTo limit: Int) -> Int? {
    // Written once, before the storage is shared.
    let hostKey = state.pointee.hostKey
    for _ in 0..<3 {
      let (changes, start) = withReadingSection { state in
        (state.changes, state.beginBroadcast())
      }
      var count = 0
      forEachRegistered(from: start) { entry, _ in
        // A host's registration holds no weak reference: it is alive.
        if entry.pointee.key == hostKey || entry.pointee.object != nil { count += 1 }
        return count < limit
      }
      if withReadingSection({ $0.changes }) == changes { return count }
    }
    return nil
  }

  /// ``liveCount`` counted with the lock held, when changes keep spoiling the walk.
  private var lockedLiveCount: Int {
    // What it loads goes out of the section in `loaded`, released with it.
    let (loaded, hostCount) = withReadingSection { state in
      let buffer = state.buffer
      var loaded: [AnyObject] = []
      loaded.reserveCapacity(buffer.count)
      var hostCount = 0
      for position in 0..<buffer.count where !buffer.stamp(at: position).isRemoved {
        if state.isHeldByHost(position) {
          hostCount += 1
        } else if let object = buffer.entry(at: position).pointee.object {
          loaded.append(object)
        }
      }
      return (loaded, hostCount)
    }
    return loaded.count + hostCount
  }

  /// Walks the unremoved entries from `start` on until `body` returns `false`; ends the broadcast.
  func forEachRegistered(
    from start: _BroadcastCursor<Payload, Index>,
    _ body: (UnsafeMutablePointer<_ObserverEntry>, _EntryStamp) -> Bool
  ) {
    var cursor = start
    defer { endBroadcast(cursor) }
    while cursor.position < cursor.endPosition {
      let stamp = cursor.buffer.stamp(at: cursor.position)
      if stamp.isRegisteredHere {
        if !body(cursor.entries + cursor.position, stamp) { return }
      } else if !stamp.isRemoved {
        // I5: moved; go on in the buffer that replaced this one.
        relocate(&cursor, to: stamp.sequence)
        continue
      }
      cursor.position += 1
    }
  }
}

extension _ObserverStorage.State {
  /// The first live registration's object, if any; release it after unlocking.
  func firstLiveObject() -> AnyObject? {
    firstLiveObject { _ in true }
  }

  /// Whether `object`, which the caller keeps alive, holds a registration not removed.
  func hasRegistration(heldBy object: AnyObject) -> Bool {
    let key = ObjectIdentifier(object)
    return hasRegistration { entryKey, _ in entryKey == key }
  }

  /// Whether a registration not removed satisfies `predicate`, loading no weak reference.
  func hasRegistration(where predicate: (ObjectIdentifier, Payload) -> Bool) -> Bool {
    for position in 0..<buffer.count where !buffer.stamp(at: position).isRemoved {
      if predicate(buffer.entry(at: position).pointee.key, buffer.payload(at: position).pointee) {
        return true
      }
    }
    return false
  }

  /// The first live object whose payload satisfies `predicate`; release it after unlocking.
  func firstLiveObject(where predicate: (Payload) -> Bool) -> AnyObject? {
    for position in 0..<buffer.count
    where !buffer.stamp(at: position).isRemoved && predicate(buffer.payload(at: position).pointee) {
      if let object = object(at: position) { return object }
    }
    return nil
  }
}

extension _ObserverStorage {
  /// The first live registration numbered from `sequence` to before `end`, if any.
  ///
  /// For a broadcast that awaits each observer: it holds no lock or buffer across an await.
  @inlinable
  func firstLive(
    from sequence: UInt64, before end: UInt64
  ) -> (object: AnyObject, payload: Payload, sequence: UInt64)? {
    withReadingSection { state in
      assert(state.hostKey == nil, "a query that skips the host's registrations")
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

  /// The number the next registration will get, read without the lock (I1).
  @inlinable
  var nextSequence: UInt64 {
    _multicast_load_acquire(readers.words + _ReaderSlots.nextSequenceWord)
  }
}
