// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// A class-bound existential is laid out as the object pointer followed by one
// witness table pointer per protocol; a class reference is the pointer alone.
// Recording the witness table when an observer is added lets a broadcast
// rebuild the observer from its weakly loaded object without a runtime cast,
// which would cost more than the weak load itself. The layout is checked for
// each observer as it is added, and any observer that does not match it
// exactly falls back to a dynamic cast.
//
// The word recorded per observer (the storage's payload for a multicast
// delegate) is the witness table pointer, 0 for a bare class reference, or 1,
// which no witness table pointer can be, for an observer that needs a cast.

extension MulticastDelegate {
  /// The word recorded for an observer that must be cast at each call.
  @usableFromInline
  static var dynamicCastWord: UInt { 1 }

  /// The word to record for `observer`: its witness table pointer, `0` for a
  /// bare class reference, or ``dynamicCastWord``.
  @inlinable
  func rebuildWord(for observer: Observer, object: AnyObject) -> UInt {
    let castWord = Self.dynamicCastWord
    guard rebuildsObservers else { return castWord }
    let wordSize = MemoryLayout<UInt>.size
    let address = UInt(bitPattern: ObjectIdentifier(object))
    let recorded: UInt? = withUnsafeBytes(of: observer) { bytes in
      guard bytes.count == wordSize || bytes.count == 2 * wordSize,
        bytes.load(as: UInt.self) == address
      else { return nil }
      guard bytes.count == 2 * wordSize else { return 0 }
      let witness = bytes.load(fromByteOffset: wordSize, as: UInt.self)
      // Pointers are aligned: a witness table's address is never 1.
      return witness > castWord ? witness : nil
    }
    return recorded ?? castWord
  }

  /// Calls `body` with the observer registered as `object` with the word
  /// `word`, made from the reference the broadcast loaded.
  ///
  /// Every observer has a side table, since it is weakly referenced, so each
  /// retain and release of it takes the runtime's slow path. The strong
  /// reference the weak load returned is consumed into the rebuilt observer,
  /// which `body` borrows: one retain (the weak load) and one release in all.
  @inlinable
  @inline(__always)
  static func withObserver(
    _ object: consuming AnyObject, _ word: UInt, _ body: (Observer) throws -> Void
  ) rethrows {
    if word == dynamicCastWord {
      try body(object as! Observer)
      return
    }
    // Move the reference into a slot laid out as the observer (no retain),
    // move the observer out of it (no retain), and leave the slot holding
    // nothing, so that destroying it releases nothing.
    var slot: (AnyObject?, UInt) = (consume object, word)
    let observer = withUnsafeMutablePointer(to: &slot) { pointer in
      let raw = UnsafeMutableRawPointer(pointer)
      let observer = raw.withMemoryRebound(to: Observer.self, capacity: 1) { $0.move() }
      raw.initializeMemory(as: (AnyObject?, UInt).self, to: (nil, 0))
      return observer
    }
    try body(observer)
  }
}
