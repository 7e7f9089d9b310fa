// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _ObserverStorage {
  /// Checks the storage's internal consistency; traps if it is broken.
  ///
  /// Built with `MULTICAST_INTERNAL_CHECKS` defined, the storage checks itself
  /// after every change to its state; tests also call this after theirs.
  func checkInvariants() {
    read { state in state.checkInvariants() }
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
    precondition(!buffer.isRetired, "the current buffer is retired")
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
    precondition(count == 0 || tombstones * 2 <= count, "buffer left sparse")
    checkIndex(registered: count - removed)
    // A retired buffer is read by a broadcast, or its last reader has left
    // and is waiting for the lock to take it off this list.
    for buffer in retired {
      precondition(buffer.isRetired, "a buffer on the retired list is not flagged retired")
    }
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
