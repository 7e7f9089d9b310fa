// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// Steps of a mutation (README.md, section 5): positions read before them are stale after.

extension _ObserverStorage.State {
  /// Makes room for one more registration in the full buffer: compacts it or grows it.
  mutating func makeRoom(_ garbage: inout _ObserverStorage.Garbage) {
    if isSweepDue { readers.setSweepWanted(true) }
    if tombstones * 4 >= buffer.count, tombstones > 0 {
      compact(reserving: 1, &garbage)
    } else {
      replaceBuffer(reserving: 1, &garbage)
    }
  }

  /// Drops the tombstones once they are more than half of the buffer (I9).
  ///
  /// A small plain-data buffer waits until full: compacting frees no memory and costs a fence.
  mutating func compactIfSparse(_ garbage: inout _ObserverStorage.Garbage) {
    guard tombstones * 2 > buffer.count,
      buffer.count > Self.minimumCapacity || !_isPOD(Payload.self)
    else { return }
    if isSweepDue { readers.setSweepWanted(true) }
    compact(reserving: 0, &garbage)
  }

  /// Drops the tombstones, in place (I4) or into a new buffer with room for `extra` more.
  private mutating func compact(reserving extra: Int, _ garbage: inout _ObserverStorage.Garbage) {
    let registered = buffer.count - tombstones
    let isMostlyRoom =
      registered * 4 < buffer.capacity && buffer.capacity > 2 * Self.minimumCapacity
    if !isMostlyRoom && !isBufferRead {
      compactInPlace(&garbage)
    } else {
      replaceBuffer(reserving: extra, &garbage)
    }
  }

  /// Replaces the buffer with one holding the registered entries, with room to spare.
  private mutating func replaceBuffer(
    reserving extra: Int, _ garbage: inout _ObserverStorage.Garbage
  ) {
    checkWriting()
    let registered = buffer.count - tombstones
    let replaced = buffer
    buffer = _ObserverStorage.Buffer.allocate(
      capacity: Swift.max(Self.minimumCapacity, 2 * registered + extra))
    tombstones = 0
    // Asked while the flag below describes `replaced` (I7); the embedded empty one costs no fence.
    let wasRead = replaced.capacity > 0 && isBufferRead
    isBufferNewerThanFlip = true
    if wasRead {
      copyRegistered(from: replaced)
      retire(replaced, &garbage)
    } else {
      moveRegistered(from: replaced, &garbage)
    }
  }

  /// Slides the registered entries down over the tombstones, in an unread buffer (I4).
  private mutating func compactInPlace(_ garbage: inout _ObserverStorage.Garbage) {
    checkWriting()
    checkUnread()
    var kept = 0
    for position in 0..<buffer.count {
      if buffer.stamp(at: position).isRemoved {
        Self.destroyEntry(position, of: buffer, &garbage)
      } else {
        if kept != position { buffer.move(position, to: kept) }
        kept += 1
      }
    }
    buffer.count = kept
    tombstones = 0
    buffer.refileAll()
  }

  /// Ends a sweep: flags those numbered in `dead` still there (I8), compacts; true if any.
  mutating func finishSweep(
    dead: [UInt64], alive: Int, end: UInt64, _ garbage: inout _ObserverStorage.Garbage
  ) -> Bool {
    var flagged = false
    for sequence in dead {
      let position = buffer.position(ofFirst: sequence, below: buffer.count)
      guard position < buffer.count else { continue }
      let stamp = buffer.stamp(at: position)
      if stamp.sequence == sequence && !stamp.isRemoved {
        checkDead(at: position)
        leaveTombstone(at: position)
        flagged = true
      }
    }
    if flagged { compact(reserving: 0, &garbage) }
    noteSweep(alive: alive, end: end)
    return flagged
  }

  /// Notes a sweep that found `alive` live; registrations from `end` on count to the next.
  mutating func noteSweep(alive: Int, end: UInt64) {
    liveAtLastSweep = alive
    registrationsSinceSweep = Int(truncatingIfNeeded: nextSequence &- end)
    if buffer.isFull && isSweepDue { readers.setSweepWanted(true) }
  }

  /// Moves `replaced`'s registered entries here bitwise, and frees it: it is unread (I4).
  private func moveRegistered(
    from replaced: _ObserverStorage.Buffer, _ garbage: inout _ObserverStorage.Garbage
  ) {
    if replaced.capacity > 0 { checkUnread() }
    for position in 0..<replaced.count {
      if replaced.stamp(at: position).isRemoved {
        Self.destroyEntry(position, of: replaced, &garbage)
      } else {
        buffer.appendMoving(position, of: replaced)
      }
    }
    replaced.count = 0
    replaced.deallocate()
  }

  /// Copies `replaced`'s registered entries here and flags its stamps moved (I5).
  private func copyRegistered(from replaced: _ObserverStorage.Buffer) {
    for position in 0..<replaced.count {
      let stamp = replaced.stamp(at: position)
      if !stamp.isRemoved { buffer.appendCopy(of: position, in: replaced) }
      replaced.setStamp(stamp.adding(_EntryStamp.movedFlag), at: position)
    }
  }

  /// Has the mutation sweep after unlocking if a sweep is due.
  mutating func wantSweepIfDue() {
    if isSweepDue { readers.setSweepWanted(true) }
  }

  /// Removes the last entry, registered, and the tombstones before it, in an unread buffer (I4).
  mutating func removeLast(_ garbage: inout _ObserverStorage.Garbage) {
    checkWriting()
    checkUnread()
    removals &+= 1
    if Guarded.hearsRemovals { guarded.removed(buffer.payload(at: buffer.count - 1)) }
    buffer.unfile(at: buffer.count - 1)
    Self.destroyEntry(buffer.count - 1, of: buffer, &garbage)
    buffer.count -= 1
    while buffer.count > 0 && buffer.stamp(at: buffer.count - 1).isRemoved {
      Self.destroyEntry(buffer.count - 1, of: buffer, &garbage)
      buffer.count -= 1
      tombstones -= 1
    }
  }

  /// Ends the entry at `position`; a payload whose release may run user code goes to the garbage.
  private static func destroyEntry(
    _ position: Int, of buffer: _ObserverStorage.Buffer,
    _ garbage: inout _ObserverStorage.Garbage
  ) {
    // Destroying a weak reference runs no user code.
    buffer.entry(at: position).deinitialize(count: 1)
    if _isPOD(Payload.self) || buffer.stamp(at: position).isReleased {
      buffer.payload(at: position).deinitialize(count: 1)
    } else {
      garbage.keep(buffer.payload(at: position).move())
    }
  }
}
