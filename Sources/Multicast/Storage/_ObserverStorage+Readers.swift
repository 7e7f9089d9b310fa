// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import _MulticastAtomics

// Beginning and ending a broadcast, and, as steps of a mutation with the
// lock held, whether broadcasts read the buffer and freeing the buffers they
// no longer read. The protocol is _ReaderSlots's.

extension _ObserverStorage {
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
      if readers.uncount(counter) { freeRetiredBuffers() }
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
      state.readers.makeOtherSlots()
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
    if _slowPath(readers.uncount(cursor.counter)) { freeRetiredBuffers() }
  }

  /// Frees the replaced buffers that no broadcast reads any more, and flips
  /// the epoch if that is what they wait for.
  ///
  /// Freeing changes nothing that a broadcast begun without the lock reads,
  /// so it only takes the lock; a flip, in a second section, marks the
  /// version busy.
  @usableFromInline
  func freeRetiredBuffers() {
    var garbage = Garbage()
    let mustFlip = withLockedState(changing: false) { state in
      state.freeRetiredBuffers(&garbage, flipping: false)
    }
    if mustFlip {
      withLockedState { state in _ = state.freeRetiredBuffers(&garbage, flipping: true) }
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
    // A broadcast does not stop to sweep for another thread.
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

extension _ObserverStorage.State {
  /// Whether a broadcast may be reading the current buffer: if not, its
  /// entries may move, and it may be freed.
  ///
  /// A broadcast counted in the other epoch reads an older buffer when the
  /// current one replaced it as the epoch flipped; otherwise it may read
  /// this one too.
  var isBufferRead: Bool {
    let (inEpoch, inOther) = epochCounts()
    let isRead = inEpoch > 0 || (!isBufferNewerThanFlip && inOther > 0)
    #if MULTICAST_INTERNAL_CHECKS
    if !isRead { section.isUnreadProven = true }
    #endif
    return isRead
  }

  /// The broadcasts counted in the current epoch and in the other.
  private func epochCounts() -> (current: UInt64, other: UInt64) {
    let (zero, one) = readers.counts()
    return epoch == 0 ? (zero, one) : (one, zero)
  }

  /// Counts a broadcast that begins in this critical section.
  ///
  /// - Returns: The counter to take the one back from, as
  ///   ``_ObserverStorage/endBroadcast(_:)`` does.
  @inlinable
  func countBroadcast() -> UnsafeMutablePointer<UInt64> {
    #if MULTICAST_INTERNAL_CHECKS
    section.isUnreadProven = false
    #endif
    return readers.countLocked(epoch: epoch)
  }

  /// Keeps `replaced`, which `buffer` just replaced and broadcasts may be
  /// reading, until they have left; frees it at once if they have.
  mutating func retire(
    _ replaced: _ObserverStorage.Buffer, _ garbage: inout _ObserverStorage.Garbage
  ) {
    retiredSinceFlip.append(replaced)
    // Set before the slots are read: a broadcast that ends unseen by
    // `reclaim` sees the flag, and reclaims.
    readers.setHasRetired(true)
    if freeRetiredBuffers(&garbage, flipping: true) {
      // The epoch flipped in the section that made the buffer current: the
      // broadcasts counted in the other epoch began before, in older buffers.
      isBufferNewerThanFlip = true
    }
  }

  /// Frees the waiting buffers that no broadcast can read any more, and
  /// flips the epoch if that lets the others go.
  ///
  /// Called by the section that retires a buffer, and by a broadcast that
  /// ends while buffers wait. A flip changes the epoch that broadcasts begun
  /// without the lock read: pass `flipping: true` only in a section that
  /// marks the version busy.
  ///
  /// - Returns: With `flipping`, whether the epoch flipped; without it,
  ///   whether a flip is due.
  mutating func freeRetiredBuffers(
    _ garbage: inout _ObserverStorage.Garbage, flipping: Bool
  ) -> Bool {
    var flipped = false
    let (inEpoch, inOther) = epochCounts()
    if inOther == 0 {
      // Every broadcast that could read a buffer retired before the last
      // flip has left.
      for buffer in retiredBeforeFlip { garbage.keep(buffer: buffer) }
      retiredBeforeFlip.removeAll()
      // No broadcast is counted in the other epoch, so it may become the
      // current one: the broadcasts counted in this one then all began
      // before the flip, and once they leave, nothing reads the buffers
      // retired until now.
      if !retiredSinceFlip.isEmpty {
        guard flipping else { return true }
        #if MULTICAST_INTERNAL_CHECKS
        checkWriting()
        #endif
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
