// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import _MulticastAtomics

// The checks of the invariants I1 to I10 that README.md states and argues.

extension _ObserverStorage {
  /// Checks the invariants, trapping if one is broken: for tests.
  func checkInvariants() {
    read { state in
      state.checkInvariants()
      state.checkPublished()
    }
  }
}

extension _ObserverStorage.State {
  /// Checks the state's invariants with the lock held, in O(n).
  @usableFromInline
  func checkInvariants() {
    let count = buffer.count
    precondition(count <= buffer.capacity, "count \(count) exceeds capacity \(buffer.capacity)")
    var removed = 0
    var previous: UInt64?
    for position in 0..<count {
      let stamp = buffer.stamp(at: position)
      precondition(!stamp.isMoved, "I5: entry \(position) of the current buffer is flagged moved")
      precondition(
        stamp.isRemoved || !stamp.isReleased,
        "I9: entry \(position) is registered, but its payload was released")
      precondition(
        previous.map { $0 < stamp.sequence } ?? true, "I3: sequences out of order at \(position)")
      precondition(stamp.sequence < nextSequence, "I3: a sequence number from the future")
      previous = stamp.sequence
      if stamp.isRemoved { removed += 1 }
      precondition(
        !isHeldByHost(position) || buffer.entry(at: position).pointee.object == nil,
        "entry \(position), held by the host, holds a weak reference")
    }
    precondition(removed == tombstones, "I9: tombstones \(tombstones), flagged entries \(removed)")
    precondition(
      tombstones <= Self.minimumCapacity || tombstones * 2 <= count, "I9: buffer left sparse")
    checkIndex(registered: count - removed)
    checkRetired()
  }

  /// Checks the retired buffers and the epoch (I5, I6, I7).
  private func checkRetired() {
    precondition(epoch <= 1, "epoch \(epoch)")
    let retired = retiredBeforeFlip + retiredSinceFlip
    precondition(Set(retired.map(\.base)).count == retired.count, "I6: a buffer retired twice")
    precondition(!retired.contains { $0.base == buffer.base }, "I6: the current buffer is retired")
    precondition(
      (readers.words[_ReaderSlots.retiredWord] != 0) == !retired.isEmpty,
      "I6: the has-retired word disagrees with the retired buffers")
    #if MULTICAST_INTERNAL_CHECKS
    for old in retired {
      precondition(
        (0..<old.count).allSatisfy { old.stamp(at: $0).isMoved },
        "I5: a retired buffer has an entry not flagged moved")
    }
    precondition(
      retiredSinceFlip.isEmpty || isBufferNewerThanFlip,
      "I7: a buffer was retired since the flip, but the current one is not newer than it")
    #endif
  }

  /// Checks that the index files exactly the registered entries (I10).
  private func checkIndex(registered: Int) {
    guard Index.filesEntries else { return }
    for position in 0..<buffer.count where !buffer.stamp(at: position).isRemoved {
      let filed = buffer.index.position(
        of: buffer.entry(at: position).pointee.key, in: buffer.entries)
      precondition(
        filed == position, "I10: entry \(position) is filed at \(String(describing: filed))")
    }
    precondition(buffer.index.count == registered, "I10: index and buffer disagree")
  }

  /// Checks the published words against the state (I1).
  @usableFromInline
  func checkPublished() {
    let words = readers.words
    precondition(
      words[_ReaderSlots.bufferWord] == UInt64(UInt(bitPattern: buffer.base))
        && words[_ReaderSlots.countWord] == UInt64(buffer.count)
        && words[_ReaderSlots.nextSequenceWord] == nextSequence
        && words[_ReaderSlots.versionWord] & 1 == epoch
        && words[_ReaderSlots.versionWord] & _ReaderSlots.busyBit == 0,
      "I1: the words broadcasts begin with are not the state's")
  }
}

#if MULTICAST_INTERNAL_CHECKS
/// Remembers whether this section found the buffer unread, counting no broadcast since (I4).
@usableFromInline
final class _SectionRecord {
  @usableFromInline
  var isUnreadProven = false

  @usableFromInline
  init() {}
}
#endif

// The checks each step calls, unconditionally: empty without the flag.
extension _ObserverStorage.State {
  /// Checks the invariants after a writing section, and the published words after any (I1).
  @inlinable @inline(__always)
  func checkAfterSection(writing: Bool) {
    #if MULTICAST_INTERNAL_CHECKS
    if writing { checkInvariants() }
    checkPublished()
    #endif
  }

  /// Notes that a section began or counted a broadcast: nothing proves the buffer unread (I4).
  @inlinable @inline(__always)
  func forgetUnreadProof() {
    #if MULTICAST_INTERNAL_CHECKS
    section.isUnreadProven = false
    #endif
  }

  /// Notes that this section found the buffer unread (I4).
  @inline(__always)
  func noteUnreadProven() {
    #if MULTICAST_INTERNAL_CHECKS
    section.isUnreadProven = true
    #endif
  }

  /// Traps unless a writing section runs (I2).
  @inline(__always)
  func checkWriting() {
    _check(
      _multicast_load_relaxed(readers.words + _ReaderSlots.versionWord) & _ReaderSlots.busyBit
        != 0,
      "I2: what broadcasts begin with changes outside a writing section")
  }

  /// Traps unless this section found the buffer unread and counted no broadcast since (I4).
  @inline(__always)
  func checkUnread() {
    #if MULTICAST_INTERNAL_CHECKS
    precondition(
      section.isUnreadProven, "I4: entries move in a buffer not found unread in this section")
    #endif
  }

  /// Traps unless the registration at `position` is dead (I8).
  @inline(__always)
  func checkDead(at position: Int) {
    _check(
      !isHeldByHost(position) && buffer.entry(at: position).pointee.object == nil,
      "I8: a sweep removes a live registration")
  }
}
