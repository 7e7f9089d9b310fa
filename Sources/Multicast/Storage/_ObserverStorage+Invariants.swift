// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _ObserverStorage {
  /// Checks the storage's internal consistency; traps if it is broken.
  ///
  /// Built with `MULTICAST_INTERNAL_CHECKS` defined, the storage checks itself
  /// after every change to its state; tests also call this after theirs.
  func checkInvariants() {
    read { state in
      state.checkInvariants()
      // Between sections, the published words are the state's.
      let words = readers.words
      precondition(
        words[_ReaderSlots.bufferWord] == UInt64(UInt(bitPattern: state.buffer.base))
          && words[_ReaderSlots.countWord] == UInt64(state.buffer.count)
          && words[_ReaderSlots.nextSequenceWord] == state.nextSequence
          && words[_ReaderSlots.versionWord] & 1 == state.epoch
          && words[_ReaderSlots.versionWord] & _ReaderSlots.busyBit == 0,
        "the words broadcasts begin with are not the state's")
    }
  }
}

extension _ObserverStorage.State {
  /// Checks the state's consistency with the lock held; traps if it is broken.
  ///
  /// O(n).
  @usableFromInline
  func checkInvariants() {
    let count = buffer.count
    precondition(count <= buffer.capacity, "count \(count) exceeds capacity \(buffer.capacity)")
    var removed = 0
    var previous: UInt64?
    for position in 0..<count {
      let stamp = buffer.stamp(at: position)
      precondition(!stamp.isMoved, "entry \(position) of the current buffer is flagged moved")
      precondition(
        stamp.isRemoved || !stamp.isReleased,
        "entry \(position) is registered, but its payload was released")
      precondition(
        previous.map { $0 < stamp.sequence } ?? true, "sequences out of order at \(position)")
      precondition(stamp.sequence < nextSequence, "a sequence number from the future")
      previous = stamp.sequence
      if stamp.isRemoved { removed += 1 }
      precondition(
        !isHeldByOwner(position) || buffer.entry(at: position).pointee.object == nil,
        "entry \(position), held by the owner, holds a weak reference")
    }
    precondition(removed == tombstones, "tombstones \(tombstones), flagged entries \(removed)")
    precondition(
      tombstones <= Self.minimumCapacity || tombstones * 2 <= count, "buffer left sparse")
    checkIndex(registered: count - removed)
    checkReaders()
  }

  /// Checks the words that broadcasts begin with, and the buffers that wait
  /// for broadcasts to leave.
  private func checkReaders() {
    let words = readers.words
    precondition(epoch <= 1, "epoch \(epoch)")
    let waiting = retiredBeforeFlip + retiredSinceFlip
    precondition(
      Set(waiting.map(\.base)).count == waiting.count, "a buffer waits twice")
    precondition(
      !waiting.contains { $0.base == buffer.base }, "the current buffer waits to be freed")
    precondition(
      (words[_ReaderSlots.retiredWord] != 0) == !waiting.isEmpty,
      "the waiting flag disagrees with the waiting buffers")
  }

  /// Checks that the index files exactly the registered entries, each at its
  /// position.
  private func checkIndex(registered: Int) {
    guard Index.filesEntries else { return }
    for position in 0..<buffer.count where !buffer.stamp(at: position).isRemoved {
      let filed = buffer.index.position(
        of: buffer.entry(at: position).pointee.key, in: buffer.entries)
      precondition(
        filed == position, "entry \(position) is filed at \(String(describing: filed))")
    }
    precondition(buffer.index.count == registered, "index and buffer disagree")
  }
}
