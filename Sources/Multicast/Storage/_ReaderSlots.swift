// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import _MulticastAtomics

/// A view of the control words and reader slots in a storage's allocation (README.md, section 3).
@usableFromInline
struct _ReaderSlots {
  @usableFromInline
  let words: UnsafeMutablePointer<UInt64>
  /// The first slot: the first thread's to broadcast without the lock, and those begun under it.
  @usableFromInline
  let firstSlot: UnsafeMutablePointer<UInt64>

  /// A cache line, or two where processors fetch lines in pairs.
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

  @usableFromInline
  static var otherSlotCount: Int { 8 }

  static var controlWordCount: Int { 8 }

  static var controlBytes: Int { controlWordCount * MemoryLayout<UInt64>.stride }

  /// Room for the first slot at any 16-byte aligned address.
  static var firstSlotBytes: Int { 2 * lineBytes - 16 }

  /// Aligns the first slot to a line within `slotMemory`: the allocation needs no line alignment.
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

  /// The version's bit set while a writing section runs (README.md, glossary).
  @usableFromInline
  static var busyBit: UInt64 { 2 }

  @usableFromInline
  static var versionStep: UInt64 { 4 }

  /// The other threads' slots, one line each, once made.
  @inlinable
  var otherSlots: UnsafeMutablePointer<UInt64>? {
    UnsafeMutablePointer(bitPattern: UInt(_multicast_load_acquire(words + Self.otherSlotsWord)))
  }

  // MARK: Writers, with the lock held

  /// Begins a writing section: the version goes busy before anything changes (I2).
  @inlinable
  func beginWrite() -> UInt64 {
    let version = _multicast_load_relaxed(words + Self.versionWord) | Self.busyBit
    _multicast_store_relaxed(words + Self.versionWord, version)
    _multicast_fence_release()
    return version
  }

  /// Publishes what broadcasts begin with, and ends the writing section (I1).
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

  /// Sets or clears the has-retired word, which ending broadcasts read.
  func setHasRetired(_ waiting: Bool) {
    _multicast_store_seq_cst(words + Self.retiredWord, waiting ? 1 : 0)
  }

  func setSweepWanted(_ wanted: Bool) {
    _multicast_store_relaxed(words + Self.sweepWord, wanted ? 1 : 0)
  }

  /// Whether a sweep is wanted; read without the lock, a hint.
  var isSweepWanted: Bool {
    _multicast_load_relaxed(words + Self.sweepWord) != 0
  }

  /// Clears the sweep-wanted word if set; true for the one caller whose call cleared it.
  func claimSweep() -> Bool {
    isSweepWanted && _multicast_compare_exchange(words + Self.sweepWord, 1, 0)
  }

  /// The broadcasts counted in each epoch, after a sequentially consistent fence (I4, I7).
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

  func makeOtherSlots() {
    guard otherSlots == nil else { return }
    let bytes = Self.otherSlotCount * Self.lineBytes
    let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: Self.lineBytes)
    memory.initializeMemory(as: UInt64.self, repeating: 0, count: bytes / 8)
    _multicast_store_release(words + Self.otherSlotsWord, UInt64(UInt(bitPattern: memory)))
  }
}
