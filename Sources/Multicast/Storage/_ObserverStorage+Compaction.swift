// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// Making room: dropping tombstones and dead observers, in place or in a new
// buffer. Steps of a mutation, with the lock held; positions read before any
// of them are stale afterwards.

extension _ObserverStorage.State {
  /// Makes room for one more registration in the full buffer.
  ///
  /// Compacts if at least a quarter of the buffer is tombstones, or else
  /// moves the entries to a buffer with twice the room.
  ///
  /// A sweep due by now has normally run already: the registration that
  /// filled the buffer with one due had its mutation sweep once it unlocked,
  /// since dead observers would make the buffer grow for nothing. If
  /// another thread's registration came first, the buffer grows, and this
  /// mutation sweeps once it has unlocked.
  ///
  /// Compacting frees at least a quarter of the buffer for O(n) moves, so
  /// appends stay O(1), amortized; and a subject whose subscriptions come
  /// and go at a steady number reuses its buffer, in place, rather than
  /// allocating a new one every few registrations.
  ///
  /// Growing by doubling, as the standard library's collections do, moves
  /// each entry once on average as a subject fills, where growing by half
  /// again moved it twice; a move goes through the runtime for the weak
  /// reference and refiles the entry in the new index. A new subject filled
  /// with 100 observers so grows 5 times, moving 150 entries, not 8 times
  /// and 258.
  mutating func makeRoom(_ garbage: inout _ObserverStorage.Garbage) {
    if isSweepDue { readers.setSweepWanted(true) }
    if tombstones * 4 >= buffer.count, tombstones > 0 {
      compact(reserving: 1, &garbage)
    } else {
      replaceBuffer(reserving: 1, &garbage)
    }
  }

  /// Drops the tombstones once they are more than half of the buffer, and
  /// has the mutation sweep once it has unlocked if a sweep is due: without
  /// it, a buffer whose dead observers never make it grow would keep them
  /// for good.
  ///
  /// A buffer of at most ``minimumCapacity`` entries whose payloads are
  /// plain data keeps its tombstones until it fills: compacting it would
  /// free no memory, and would cost a subject with one observer that comes
  /// and goes a fence (the check that no broadcast reads the buffer) on every
  /// removal. Payloads that hold references (a handler's captures) go at
  /// once, as the subscription's end promises, so their buffer is compacted
  /// whatever its size.
  mutating func compactIfSparse(_ garbage: inout _ObserverStorage.Garbage) {
    guard tombstones * 2 > buffer.count,
      buffer.count > Self.minimumCapacity || !_isPOD(Payload.self)
    else { return }
    if isSweepDue { readers.setSweepWanted(true) }
    compact(reserving: 0, &garbage)
  }

  /// Drops the tombstones: in place when no broadcast reads the buffer and
  /// it is not mostly empty room; otherwise into a new buffer with room for
  /// `extra` more.
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

  /// Replaces the buffer with one holding the registered entries, with room
  /// for as many again plus `extra`.
  private mutating func replaceBuffer(
    reserving extra: Int, _ garbage: inout _ObserverStorage.Garbage
  ) {
    #if MULTICAST_INTERNAL_CHECKS
    checkWriting()
    #endif
    let registered = buffer.count - tombstones
    let replaced = buffer
    buffer = _ObserverStorage.Buffer.allocate(
      capacity: Swift.max(Self.minimumCapacity, 2 * registered + extra))
    tombstones = 0
    // Counted before the flag below changes: it still says whether
    // `replaced` may be read by the other epoch. The
    // storage's embedded buffer, with no room, has no entry to move and is
    // never freed, so it needs no count (a new subject's first registration
    // so pays for no fence).
    let wasRead = replaced.capacity > 0 && isBufferRead
    isBufferNewerThanFlip = true
    if wasRead {
      copyRegistered(from: replaced)
      retire(replaced, &garbage)
    } else {
      moveRegistered(from: replaced, &garbage)
    }
  }

  /// Slides the registered entries down over the tombstones.
  ///
  /// No broadcast may read the buffer.
  private mutating func compactInPlace(_ garbage: inout _ObserverStorage.Garbage) {
    #if MULTICAST_INTERNAL_CHECKS
    checkWriting()
    checkUnread()
    #endif
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

  /// Ends a sweep (see ``_ObserverStorage/sweep()``).
  ///
  /// Flags removed the registrations numbered in `dead`, whose objects were
  /// gone, unless they were removed meanwhile; notes that `alive` were
  /// alive; and compacts if it flagged any, so that their payloads go now.
  /// The registrations from `end` on, which the sweep did not look at, count
  /// towards the next.
  ///
  /// - Returns: Whether it flagged any.
  mutating func finishSweep(
    dead: [UInt64], alive: Int, end: UInt64, _ garbage: inout _ObserverStorage.Garbage
  ) -> Bool {
    var flagged = false
    for sequence in dead {
      let position = buffer.position(ofFirst: sequence, below: buffer.count)
      guard position < buffer.count else { continue }
      let stamp = buffer.stamp(at: position)
      if stamp.sequence == sequence && !stamp.isRemoved {
        #if MULTICAST_INTERNAL_CHECKS
        checkDead(at: position)
        #endif
        leaveTombstone(at: position)
        flagged = true
      }
    }
    if flagged { compact(reserving: 0, &garbage) }
    noteSweep(alive: alive, end: end)
    return flagged
  }

  /// Notes what a sweep found.
  ///
  /// `alive` registrations were alive; those from `end` on, which it did not
  /// look at, count towards the next sweep, and may make it due at once if
  /// the buffer is full. A flag another change set meanwhile stays set.
  mutating func noteSweep(alive: Int, end: UInt64) {
    liveAtLastSweep = alive
    registrationsSinceSweep = Int(truncatingIfNeeded: nextSequence &- end)
    if buffer.isFull && isSweepDue { readers.setSweepWanted(true) }
  }

  /// Moves the registered entries of `replaced` to the buffer and frees
  /// `replaced`: no broadcast reads it, so entries move bitwise, with no
  /// reference counting.
  private func moveRegistered(
    from replaced: _ObserverStorage.Buffer, _ garbage: inout _ObserverStorage.Garbage
  ) {
    #if MULTICAST_INTERNAL_CHECKS
    if replaced.capacity > 0 { checkUnread() }
    #endif
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

  /// Copies the registered entries of `replaced` to the buffer and flags
  /// every old stamp moved, so that the broadcasts reading `replaced` go on
  /// in the buffer; the caller retires `replaced`.
  private func copyRegistered(from replaced: _ObserverStorage.Buffer) {
    for position in 0..<replaced.count {
      let stamp = replaced.stamp(at: position)
      if !stamp.isRemoved { buffer.appendCopy(of: position, in: replaced) }
      replaced.setStamp(stamp.adding(_EntryStamp.movedFlag), at: position)
    }
  }

  /// Has the mutation sweep once it has unlocked if a sweep is due: the
  /// sweep compacts if it finds any dead, so that their payloads go then,
  /// not when the buffer next fills.
  mutating func wantSweepIfDue() {
    if isSweepDue { readers.setSweepWanted(true) }
  }

  /// Removes the last entry, registered, with no tombstone, and the removed
  /// entries just before it: no broadcast may read the buffer.
  ///
  /// The next registration takes its place. So a subscription ended before
  /// any made after it, as a view's that appears and goes, costs no
  /// compaction.
  mutating func removeLast(_ garbage: inout _ObserverStorage.Garbage) {
    #if MULTICAST_INTERNAL_CHECKS
    checkWriting()
    checkUnread()
    #endif
    removals &+= 1
    buffer.unfile(at: buffer.count - 1)
    Self.destroyEntry(buffer.count - 1, of: buffer, &garbage)
    buffer.count -= 1
    while buffer.count > 0 && buffer.stamp(at: buffer.count - 1).isRemoved {
      Self.destroyEntry(buffer.count - 1, of: buffer, &garbage)
      buffer.count -= 1
      tombstones -= 1
    }
  }

  /// Ends the registration at `position` of `buffer`, which stays
  /// uninitialized there.
  ///
  /// Its payload, unless it is plain data or a placeholder that replaced a
  /// payload released earlier, is released after the lock is: a handler's
  /// captures may run user code when they go.
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
