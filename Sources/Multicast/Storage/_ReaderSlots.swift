// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import _MulticastAtomics

// Who reads the storage's buffers: broadcasts counted per thread, in slots
// on cache lines of their own, in two epochs, so that two threads
// broadcasting at once write no word in common.
//
// The protocol, in full (the storage's mutations are its writers, its
// broadcasts its readers):
//
// - Words. Control words, written only with the lock held: the version, the
//   current buffer's address, its count, the next sequence number,
//   whether buffers wait to be freed, and whether a mutation should sweep
//   once it has unlocked (a hint). A line of counters, the first slot, for
//   the first thread that broadcasts without the lock and for broadcasts
//   begun with it; the slots of other threads, eight lines, are made when a
//   second thread first broadcasts. Each slot has a counter per epoch.
// - Version. Every critical section that changes what a broadcast reads sets
//   its busy bit on entry (before it changes anything), publishes the
//   buffer's address, its count and the next sequence number, and clears
//   the bit and adds one to its count of sections on exit. Its low bit is
//   the epoch new broadcasts count themselves in.
// - Beginning without the lock. Read the version (acquire); if busy, take the
//   lock instead. Add one to the thread's slot for the version's epoch
//   (sequentially consistent), read the three published words, and read the
//   version again (sequentially consistent, after an acquire fence): if it
//   changed, take the one back and begin with the lock instead. Otherwise
//   the words are one critical section's, and the broadcast reads that
//   buffer below that count. It touches no buffer before that check: one
//   counted in an epoch that has flipped since may hold the address of a
//   buffer that a later section freed, having seen it counted only in the
//   other epoch. Beginning with the lock adds one to the first slot for the
//   current epoch: no critical section can run meanwhile.
// - Ending. Take the one back (sequentially consistent), then read whether
//   buffers wait to be freed (sequentially consistent); if so, take the lock
//   and free what can be.
// - Moving entries. A critical section moves entries in place, or frees a
//   buffer, only when it finds no broadcast counted that could read it
//   (after a sequentially consistent fence, which orders its busy version
//   before its reads of the slots). A broadcast that it did not count added
//   its one after that fence, so it reads the busy version, or a later one,
//   and never reads the entries.
// - Epochs. A replaced buffer that broadcasts may read waits, with the
//   others replaced since the last flip of the epoch. The epoch flips only
//   when no broadcast is counted in the other epoch (the one it flips to), so
//   after a flip every broadcast counted in the old epoch began before it;
//   buffers replaced before the flip are freed once the old epoch's count is
//   zero: the broadcasts that could read them have all left, and those that
//   began since read later buffers. New broadcasts count themselves in the
//   new epoch, so the old one drains however busy the storage is.
// - Who frees. Whoever sees the count reach zero with buffers waiting: the
//   critical section that replaced the buffer, if its readers left already,
//   or a broadcast as it ends (it reads the waiting flag after taking its one
//   back; the section sets the flag before it reads the slots, so one of the
//   two sees the other).
//
// What it costs: eight words and a line per storage (the first slot, with room
// to align it), and eight lines more for a storage that two threads
// broadcast through without the lock.

/// The broadcasts reading a storage's buffers, counted per thread and per
/// epoch, and the words that let a broadcast begin without the lock; see the
/// protocol above.
///
/// A view of memory in the storage's allocation: the control words, and the
/// first slot on a line of its own.
@usableFromInline
struct _ReaderSlots {
  /// The control words.
  @usableFromInline
  let words: UnsafeMutablePointer<UInt64>
  /// The first slot: the first thread's that broadcasts without the lock, and
  /// every broadcast's begun with it.
  @usableFromInline
  let firstSlot: UnsafeMutablePointer<UInt64>

  /// The bytes between words that two threads write at once: a cache line,
  /// or two, which some processors fetch together.
  @usableFromInline
  static var lineBytes: Int {
    #if arch(x86_64) || arch(i386)
    64
    #else
    128
    #endif
  }

  @usableFromInline
  static var lineWords: Int { lineBytes / MemoryLayout<UInt64>.stride }

  /// The number of slots made for threads other than the first slot's.
  @usableFromInline
  static var otherSlotCount: Int { 8 }

  /// The number of control words.
  static var controlWordCount: Int { 8 }

  /// The bytes the control words take, 8-byte aligned.
  static var controlBytes: Int { controlWordCount * MemoryLayout<UInt64>.stride }

  /// The bytes to set aside for the first slot, at any 16-byte aligned
  /// address: room to align it to a line, and the line.
  static var firstSlotBytes: Int { 2 * lineBytes - 16 }

  /// Makes the control words in `control` (``controlBytes``) and the home
  /// slot on the first line boundary in `home` (``firstSlotBytes``), for a
  /// storage whose first buffer is `buffer`.
  ///
  /// The first slot is aligned here rather than by the allocation, so that
  /// the storage's allocation needs no more than the allocator's natural
  /// alignment: an over-aligned allocation makes each storage slower to
  /// make.
  init(
    control: UnsafeMutableRawPointer, firstSlot slotMemory: UnsafeMutableRawPointer,
    buffer: UnsafeMutableRawPointer
  ) {
    words = control.bindMemory(to: UInt64.self, capacity: Self.controlWordCount)
    words.initialize(repeating: 0, count: Self.controlWordCount)
    words[Self.bufferWord] = UInt64(UInt(bitPattern: buffer))
    let line = _BufferLayout.aligned(Int(bitPattern: slotMemory), to: Self.lineBytes)
    firstSlot = UnsafeMutableRawPointer(bitPattern: line).unsafelyUnwrapped
      .bindMemory(to: UInt64.self, capacity: Self.lineWords)
    firstSlot.initialize(repeating: 0, count: Self.lineWords)
  }

  /// Frees the other threads' slots, if any were made.
  func destroy() {
    if let otherSlots { UnsafeMutableRawPointer(otherSlots).deallocate() }
  }

  // MARK: Control words

  @usableFromInline static var versionWord: Int { 0 }
  @usableFromInline static var bufferWord: Int { 1 }
  @usableFromInline static var nextSequenceWord: Int { 2 }
  @usableFromInline static var retiredWord: Int { 3 }
  @usableFromInline static var firstThreadWord: Int { 4 }
  @usableFromInline static var otherSlotsWord: Int { 5 }
  @usableFromInline static var countWord: Int { 6 }
  static var sweepWord: Int { 7 }

  /// The bit of the version that a critical section sets while it runs;
  /// below it, the epoch; above it, the number of sections that ran.
  @usableFromInline
  static var busyBit: UInt64 { 2 }

  /// What each section adds to the version.
  @usableFromInline
  static var versionStep: UInt64 { 4 }

  /// The other threads' slots, one line each, once made.
  @inlinable
  var otherSlots: UnsafeMutablePointer<UInt64>? {
    UnsafeMutablePointer(bitPattern: UInt(_multicast_load_acquire(words + Self.otherSlotsWord)))
  }

  // MARK: Writers, with the lock held

  /// Marks a critical section under way: the version goes busy before
  /// anything changes.
  ///
  /// - Returns: The version to pass to ``endWrite(_:epoch:nextSequence:)``.
  @inlinable
  func beginWrite() -> UInt64 {
    let version = _multicast_load_relaxed(words + Self.versionWord) | Self.busyBit
    _multicast_store_relaxed(words + Self.versionWord, version)
    _multicast_fence_release()
    return version
  }

  /// Publishes the section's buffer, with its count, its next sequence
  /// number and its epoch, and ends it: the version is no longer busy, and
  /// counts one more section.
  @inlinable
  func endWrite(
    _ version: UInt64, buffer: UnsafeMutableRawPointer, count: Int, epoch: UInt64,
    nextSequence: UInt64
  ) {
    _multicast_store_relaxed(words + Self.bufferWord, UInt64(UInt(bitPattern: buffer)))
    _multicast_store_relaxed(words + Self.countWord, UInt64(truncatingIfNeeded: count))
    _multicast_store_relaxed(words + Self.nextSequenceWord, nextSequence)
    _multicast_store_release(
      words + Self.versionWord, ((version & ~(Self.busyBit | 1)) &+ Self.versionStep) | epoch)
  }

  /// Sets or clears the flag that tells ending broadcasts that buffers wait
  /// to be freed.
  func setHasRetired(_ waiting: Bool) {
    _multicast_store_seq_cst(words + Self.retiredWord, waiting ? 1 : 0)
  }

  /// Sets or clears the flag that asks a mutation to sweep once it has
  /// unlocked: a step found a sweep due, or the buffer is full with one due,
  /// so that the next registration would make it grow.
  func setSweepWanted(_ wanted: Bool) {
    _multicast_store_relaxed(words + Self.sweepWord, wanted ? 1 : 0)
  }

  /// Whether a mutation should sweep once it has unlocked: read without the
  /// lock, a hint (a sweep that is not needed finds nothing).
  var isSweepWanted: Bool {
    _multicast_load_relaxed(words + Self.sweepWord) != 0
  }

  /// Clears the sweep flag if it is set, and says whether this call did:
  /// of the threads that see it set, one sweeps.
  func claimSweep() -> Bool {
    isSweepWanted && _multicast_compare_exchange(words + Self.sweepWord, 1, 0)
  }

  /// The broadcasts counted in each epoch, read after a sequentially
  /// consistent fence: a broadcast not counted here added its one after the
  /// fence, and will see the section's busy version (and its published
  /// buffer and waiting flag).
  func counts() -> (UInt64, UInt64) {
    _multicast_fence_seq_cst()
    var counts = (_multicast_load_acquire(firstSlot), _multicast_load_acquire(firstSlot + 1))
    if let otherSlots {
      for slot in 0..<Self.otherSlotCount {
        let line = otherSlots + slot * Self.lineWords
        counts.0 &+= _multicast_load_acquire(line)
        counts.1 &+= _multicast_load_acquire(line + 1)
      }
    }
    return counts
  }

  /// Makes the other threads' slots, unless they are made.
  func makeOtherSlots() {
    guard otherSlots == nil else { return }
    let bytes = Self.otherSlotCount * Self.lineBytes
    let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: Self.lineBytes)
    memory.initializeMemory(as: UInt64.self, repeating: 0, count: bytes / 8)
    _multicast_store_release(words + Self.otherSlotsWord, UInt64(UInt(bitPattern: memory)))
  }
}
