// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// An entry's place in registration order and its flags, in one word that
/// broadcasts load atomically.
///
/// The sequence number is unique and increasing within a storage and stays
/// with the entry when it moves to a new buffer. The flags are written only
/// with the storage's lock held.
@usableFromInline
struct _EntryStamp {
  @usableFromInline
  let rawValue: UInt64

  @inlinable
  init(rawValue: UInt64) { self.rawValue = rawValue }

  init(sequence: UInt64) {
    precondition(sequence < 1 << 61, "more registrations than a storage can number")
    rawValue = sequence << 3
  }

  /// The entry was removed: broadcasts skip it.
  @usableFromInline
  static var removedFlag: UInt64 { 1 }
  /// The entry was copied to a newer buffer: a broadcast that meets it moves
  /// to that buffer, where later removals are marked.
  @usableFromInline
  static var movedFlag: UInt64 { 2 }
  /// The removed entry's payload was released already, and replaced by a
  /// placeholder whose destruction runs no user code: compaction destroys
  /// it in place, under the lock, rather than keeping it to release after.
  static var releasedFlag: UInt64 { 4 }

  @usableFromInline
  var sequence: UInt64 { rawValue >> 3 }
  /// Whether the entry is registered and not moved: whether a broadcast
  /// calls it (if its object is alive).
  @inlinable
  var isRegisteredHere: Bool { rawValue & 3 == 0 }
  @usableFromInline
  var isRemoved: Bool { rawValue & Self.removedFlag != 0 }
  @usableFromInline
  var isMoved: Bool { rawValue & Self.movedFlag != 0 }
  var isReleased: Bool { rawValue & Self.releasedFlag != 0 }

  func adding(_ flag: UInt64) -> _EntryStamp { _EntryStamp(rawValue: rawValue | flag) }
}
