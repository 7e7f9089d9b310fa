// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// An entry's sequence number and flags, in one word that broadcasts load atomically.
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
  /// The entry was copied to a newer buffer: a broadcast goes on there (I5).
  @usableFromInline
  static var movedFlag: UInt64 { 2 }
  /// The removed entry's payload was released early, replaced by a placeholder.
  static var releasedFlag: UInt64 { 4 }

  @usableFromInline
  var sequence: UInt64 { rawValue >> 3 }
  /// Not removed and not moved: a broadcast calls it here, if it is alive.
  @inlinable
  var isRegisteredHere: Bool { rawValue & 3 == 0 }
  @usableFromInline
  var isRemoved: Bool { rawValue & Self.removedFlag != 0 }
  @usableFromInline
  var isMoved: Bool { rawValue & Self.movedFlag != 0 }
  var isReleased: Bool { rawValue & Self.releasedFlag != 0 }

  func adding(_ flag: UInt64) -> _EntryStamp { _EntryStamp(rawValue: rawValue | flag) }
}
