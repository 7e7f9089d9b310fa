// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import _MulticastAtomics

// Beginning and ending broadcasts; retiring and freeing buffers (README.md, sections 3, 4).

extension _ObserverStorage {
  /// Starts a broadcast, counted so that what it reads stays put (I4, I7).
  @inlinable
  func beginBroadcast() -> _BroadcastCursor<Payload, Index> {
    if let cursor = beginBroadcastWithoutLock() { return cursor }
    return beginBroadcastLocked()
  }

  /// Starts a broadcast without the lock, or returns `nil`, having changed nothing.
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
    readers.widenRaceWindow(after: version)
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
      if readers.uncount(counter) { freeRetiredBuffers() }
      return nil
    }
    // I1: the words are one section's, and none began since the broadcast was counted.
    return _BroadcastCursor(
      buffer: Buffer(base: UnsafeMutableRawPointer(bitPattern: UInt(base)).unsafelyUnwrapped),
      position: 0, endPosition: Int(truncatingIfNeeded: count), end: end, counter: counter)
  }

  /// Starts a broadcast under the lock, and makes the other slots for next time.
  @usableFromInline
  func beginBroadcastLocked() -> _BroadcastCursor<Payload, Index> {
    withReadingSection { state in
      state.readers.makeOtherSlots()
      return state.beginBroadcast()
    }
  }

  /// Starts a broadcast of the registrations made before the one numbered `end`,
  /// without the lock when it can: a deliverer would wait for a flooding sender
  /// (whose drains move between threads, so the other slots are made if missing).
  @inlinable
  func beginBroadcast(registeredBefore end: UInt64) -> _BroadcastCursor<Payload, Index> {
    let all = beginBroadcastWithoutLock() ?? beginBroadcastLocked()
    // Sequence numbers only grow, so `end` is at most `all.end`.
    precondition(end <= all.end, "I1: a broadcast of registrations not yet made")
    return _BroadcastCursor(
      buffer: all.buffer, position: 0,
      endPosition: all.buffer.position(ofFirst: end, below: all.endPosition),
      end: end, counter: all.counter)
  }

  /// Joins `reading`, still counted, on its buffer and counter, for the registrations before `end`.
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

  /// Ends a broadcast, without the lock unless buffers are retired.
  @inlinable
  func endBroadcast(_ cursor: _BroadcastCursor<Payload, Index>) {
    if _slowPath(readers.uncount(cursor.counter)) { freeRetiredBuffers() }
  }

  /// Frees the retired buffers no broadcast reads, flipping in a second, writing section if due.
  @usableFromInline
  func freeRetiredBuffers() {
    var garbage = Garbage()
    let mustFlip = withReadingSection { state in
      state.freeRetiredBuffers(&garbage, flipping: false)
    }
    if mustFlip {
      withWritingSection { state in _ = state.freeRetiredBuffers(&garbage, flipping: true) }
    }
    _ = consume garbage
  }

  /// Moves `cursor` from a retired buffer to the current one, from `sequence` on (I5, I7).
  @usableFromInline
  func relocate(_ cursor: inout _BroadcastCursor<Payload, Index>, to sequence: UInt64) {
    let exited = cursor.counter
    let end = cursor.end
    // Writing, since it may flip the epoch (I2), with no sweep: a broadcast does not stop.
    cursor = mutateWithoutSweeping { state, garbage in
      let current = state.buffer
      let relocated = _BroadcastCursor(
        buffer: current,
        position: current.position(ofFirst: sequence, below: current.count),
        endPosition: current.position(ofFirst: end, below: current.count),
        end: end, counter: state.countBroadcast())
      if state.readers.uncount(exited) { _ = state.freeRetiredBuffers(&garbage, flipping: true) }
      return relocated
    }
  }
}

extension _ObserverStorage.State {
  /// Starts a broadcast in the caller's section; end it with ``_ObserverStorage/endBroadcast(_:)``.
  @inlinable @inline(__always)
  func beginBroadcast() -> _BroadcastCursor<Payload, Index> {
    _BroadcastCursor(
      buffer: buffer, position: 0, endPosition: buffer.count, end: nextSequence,
      counter: countBroadcast())
  }
}

extension _ObserverStorage.State {
  /// Whether a broadcast may be reading the current buffer (I4, I7).
  var isBufferRead: Bool {
    let (inEpoch, inOther) = epochCounts()
    let isRead = inEpoch > 0 || (!isBufferNewerThanFlip && inOther > 0)
    if !isRead { noteUnreadProven() }
    return isRead
  }

  private func epochCounts() -> (current: UInt64, other: UInt64) {
    let (zero, one) = readers.counts()
    return epoch == 0 ? (zero, one) : (one, zero)
  }

  /// Counts a broadcast begun in this section; returns the counter to take it back from.
  @inlinable
  func countBroadcast() -> UnsafeMutablePointer<UInt64> {
    forgetUnreadProof()
    return readers.countLocked(epoch: epoch)
  }

  /// Retires `replaced`, which broadcasts may read, and frees what retired buffers it can.
  mutating func retire(
    _ replaced: _ObserverStorage.Buffer, _ garbage: inout _ObserverStorage.Garbage
  ) {
    retiredSinceFlip.append(replaced)
    // Before the counters are read: a broadcast that ends unseen sees it.
    readers.setHasRetired(true)
    if freeRetiredBuffers(&garbage, flipping: true) {
      // I7: flipped in the section that made the buffer current.
      isBufferNewerThanFlip = true
    }
  }

  /// Frees the retired buffers no broadcast can read, flipping the epoch if it may (I7).
  ///
  /// Pass `flipping: true` only in a writing section (I2); returns whether it flipped, or would.
  mutating func freeRetiredBuffers(
    _ garbage: inout _ObserverStorage.Garbage, flipping: Bool
  ) -> Bool {
    var flipped = false
    let (inEpoch, inOther) = epochCounts()
    if inOther == 0 {
      // I7: their readers were all counted in the other epoch.
      for buffer in retiredBeforeFlip { garbage.keep(buffer: buffer) }
      retiredBeforeFlip.removeAll()
      // I7: nothing is counted in the other epoch; it becomes the current.
      if !retiredSinceFlip.isEmpty {
        guard flipping else { return true }
        checkWriting()
        epoch ^= 1
        flipped = true
        isBufferNewerThanFlip = false
        swap(&retiredBeforeFlip, &retiredSinceFlip)
        if inEpoch == 0 {
          for buffer in retiredBeforeFlip { garbage.keep(buffer: buffer) }
          retiredBeforeFlip.removeAll()
        }
      }
    }
    if retiredBeforeFlip.isEmpty && retiredSinceFlip.isEmpty { readers.setHasRetired(false) }
    return flipped
  }
}
