// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import _MulticastAtomics

extension _ReaderSlots {
  /// Counts a broadcast begun under the lock in the first slot; returns the counter.
  @inlinable
  func countLocked(epoch: UInt64) -> UnsafeMutablePointer<UInt64> {
    let counter = firstSlot + Int(epoch)
    _ = _multicast_fetch_add_seq_cst(counter, 1)
    return counter
  }

  /// The calling thread's slot, or `nil` until the other slots are made (README.md, section 3).
  @inlinable
  func slotOfCallingThread() -> UnsafeMutablePointer<UInt64>? {
    let number = UInt64(_multicast_thread_number()) &+ 1
    let firstThread = _multicast_load_relaxed(words + Self.firstThreadWord)
    if _fastPath(firstThread == number) { return firstSlot }
    if firstThread == 0 && _multicast_compare_exchange(words + Self.firstThreadWord, 0, number) {
      return firstSlot
    }
    guard let otherSlots else { return nil }
    return otherSlots + Int(number % UInt64(Self.otherSlotCount)) * Self.lineWords
  }

  /// Stalls a broadcast in checked builds (README.md, section 6); empty otherwise.
  @usableFromInline @inline(__always)
  func widenRaceWindow(after version: UInt64) {
    #if MULTICAST_INTERNAL_CHECKS
    guard (version / Self.versionStep) % 8 == 0 else { return }
    for _ in 0..<1_000 {
      let now = _multicast_load_relaxed(words + Self.versionWord)
      if now != version && now & Self.busyBit == 0 { return }
    }
    #endif
  }

  /// Takes back a broadcast's one; returns whether buffers are retired, for the caller to free.
  @inlinable
  func uncount(_ counter: UnsafeMutablePointer<UInt64>) -> Bool {
    _ = _multicast_fetch_sub_seq_cst(counter, 1)
    return _multicast_load_seq_cst(words + Self.retiredWord) != 0
  }
}
