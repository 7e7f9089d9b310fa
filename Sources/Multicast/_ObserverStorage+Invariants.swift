// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _ObserverStorage {
  /// Checks the storage's internal consistency; traps if it is broken.
  ///
  /// Built with `MULTICAST_INTERNAL_CHECKS` defined, the storage checks itself
  /// after every mutation; tests also call this after theirs.
  func checkInvariants() {
    read { state in state.checkInvariants() }
  }
}

extension _ObserverStorage.State {
  /// Checks the state's consistency with the lock held; traps if it is broken.
  ///
  /// O(n).
  func checkInvariants() {
    let (words, entries, count) = (buffer.words, buffer.entries, buffer.count)
    precondition(count <= buffer.capacity, "count \(count) exceeds capacity \(buffer.capacity)")
    var removed = 0
    var previous: UInt64?
    for position in 0..<count {
      let word = _EntryWord(rawValue: words[position])
      precondition(!word.isMoved, "entry \(position) of the current buffer is flagged moved")
      precondition(
        previous.map { $0 < word.sequence } ?? true, "sequences out of order at \(position)")
      precondition(word.sequence < nextSequence, "a sequence number from the future")
      previous = word.sequence
      if word.isRemoved {
        removed += 1
      } else if let index = buffer.index {
        let filed = index.position(of: entries[position].key, in: entries)
        precondition(
          filed == position, "entry \(position) is filed at \(String(describing: filed))")
      }
    }
    precondition(removed == tombstones, "tombstones \(tombstones), flagged entries \(removed)")
    precondition(count == 0 || tombstones * 2 <= count, "buffer left sparse")
    if let index = buffer.index {
      precondition(index.count == count - removed, "index and buffer disagree")
    }
    for buffer in retired {
      precondition(buffer.readers > 0, "a replaced buffer is kept with no reader")
    }
  }
}
