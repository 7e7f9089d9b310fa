// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// One registration's object, stored inline in an ``_ObserverBuffer``: a weak
/// reference to it and the identity it had.
///
/// The rest of the registration lies beside it in the buffer: its place in
/// registration order and its flags in an ``_EntryWord``, which broadcasts
/// read atomically, and what a face attaches, its payload. The entry is not
/// generic, so that specialized code moves it field by field rather than
/// through a generic value witness.
@usableFromInline
struct _ObserverEntry {
  /// The registered object, set once.
  ///
  /// Loading a weak reference is safe while another thread is releasing the
  /// object: the runtime makes that load atomic. Nothing writes it while a
  /// broadcast may read it: entries are written only before their count is
  /// published under the lock, or moved when no broadcast reads the buffer.
  @usableFromInline
  weak var object: AnyObject?
  /// The identity of the object when it was registered; still known after
  /// the object is gone, when `object` reads `nil`.
  @usableFromInline
  let key: ObjectIdentifier

  init(object: AnyObject) {
    self.object = object
    self.key = ObjectIdentifier(object)
  }
}

/// An entry's place in registration order and its flags, in one word that
/// broadcasts load atomically.
///
/// The sequence number is unique and increasing within a storage and stays
/// with the entry when it moves to a new buffer. The flags are written only
/// with the storage's lock held.
@usableFromInline
struct _EntryWord {
  @usableFromInline
  let rawValue: UInt64

  @inlinable
  init(rawValue: UInt64) { self.rawValue = rawValue }

  init(sequence: UInt64) {
    precondition(sequence < 1 << 62, "more registrations than a storage can number")
    rawValue = sequence << 2
  }

  /// The entry was removed: broadcasts skip it.
  @usableFromInline
  static var removedFlag: UInt64 { 1 }
  /// The entry was copied to a newer buffer: a broadcast that meets it moves
  /// to that buffer, where later removals are marked.
  @usableFromInline
  static var movedFlag: UInt64 { 2 }

  @usableFromInline
  var sequence: UInt64 { rawValue >> 2 }
  /// Whether the entry is registered and not moved: whether a broadcast
  /// calls it (if its object is alive).
  @inlinable
  var isCurrent: Bool { rawValue & 3 == 0 }
  @usableFromInline
  var isRemoved: Bool { rawValue & Self.removedFlag != 0 }
  @usableFromInline
  var isMoved: Bool { rawValue & Self.movedFlag != 0 }

  func adding(_ flag: UInt64) -> _EntryWord { _EntryWord(rawValue: rawValue | flag) }
}

/// A registration that is its own handle, such as an event subscription: the
/// way to find it again to remove it.
struct _Registration: Hashable {
  /// The entry's sequence number, which stays with it for its whole life.
  let sequence: UInt64
}
