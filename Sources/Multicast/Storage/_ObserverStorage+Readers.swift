// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// Whether broadcasts read the buffers, and freeing the buffers they no
// longer read: steps of a mutation, with the lock held. The protocol is
// _ReaderSlots's.

extension _ObserverStorage.State {
  /// Whether a broadcast may be reading the current buffer: if not, its
  /// entries may move, and it may be freed.
  ///
  /// A broadcast counted in the other epoch reads an older buffer when the
  /// current one replaced it as the epoch flipped; otherwise it may read
  /// this one too.
  var isBufferRead: Bool {
    let (inEpoch, inOther) = epochCounts()
    return inEpoch > 0 || (!isBufferNewerThanEpoch && inOther > 0)
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
    readers.countLocked(epoch: epoch)
  }

  /// Keeps `replaced`, which `buffer` just replaced and broadcasts may be
  /// reading, until they have left; frees it at once if they have.
  mutating func retire(
    _ replaced: _ObserverStorage.Buffer, _ garbage: inout _ObserverStorage.Garbage
  ) {
    waitingSinceFlip.append(replaced)
    // Set before the slots are read: a broadcast that ends unseen by
    // `reclaim` sees the flag, and reclaims.
    readers.setWaiting(true)
    if reclaim(&garbage, flipping: true) {
      // The epoch flipped in the section that made the buffer current: the
      // broadcasts counted in the other epoch began before, in older buffers.
      isBufferNewerThanEpoch = true
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
  mutating func reclaim(_ garbage: inout _ObserverStorage.Garbage, flipping: Bool) -> Bool {
    var flipped = false
    let (inEpoch, inOther) = epochCounts()
    if inOther == 0 {
      // Every broadcast that could read a buffer retired before the last
      // flip has left.
      for buffer in waitingBeforeFlip { garbage.keep(buffer: buffer) }
      waitingBeforeFlip.removeAll()
      // No broadcast is counted in the other epoch, so it may become the
      // current one: the broadcasts counted in this one then all began
      // before the flip, and once they leave, nothing reads the buffers
      // retired until now.
      if !waitingSinceFlip.isEmpty {
        guard flipping else { return true }
        epoch ^= 1
        flipped = true
        isBufferNewerThanEpoch = false
        swap(&waitingBeforeFlip, &waitingSinceFlip)
        if inEpoch == 0 {
          for buffer in waitingBeforeFlip { garbage.keep(buffer: buffer) }
          waitingBeforeFlip.removeAll()
        }
      }
    }
    if waitingBeforeFlip.isEmpty && waitingSinceFlip.isEmpty { readers.setWaiting(false) }
    return flipped
  }
}
