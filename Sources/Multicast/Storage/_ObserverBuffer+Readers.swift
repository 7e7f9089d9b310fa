// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import _MulticastAtomics

// The broadcasts reading a buffer, counted in one atomic word of its header,
// with a flag set once the buffer is replaced (retired).
//
// Readers join only with the storage's lock held, and only the current
// buffer; they leave without it, with one atomic decrement. So with the lock
// held, a count of zero stays zero: no broadcast reads the buffer, and its
// entries may move. A buffer replaced while read is retired: the flag and the
// count change in one word, so exactly one party sees the count reach zero on
// a retired buffer. Either the storage, as it retires the buffer (every
// reader left meanwhile), or the last reader as it leaves; that one frees it.

extension _ObserverBuffer {
  /// The flag set in ``Header/readers`` once the buffer is replaced.
  @usableFromInline
  static var retiredFlag: UInt64 { 1 << 63 }

  /// The header's reader word.
  @inlinable
  var readersWord: UnsafeMutablePointer<UInt64> {
    // `readers` is the header's first stored property, and memory bound to a
    // struct is bound to each stored property's type at its offset.
    assert(MemoryLayout<Header>.offset(of: \Header.readers) == 0)
    return base.assumingMemoryBound(to: UInt64.self)
  }

  /// Counts a broadcast among the readers; call with the lock held, on the
  /// current buffer, or as a reader of this buffer already (which keeps it
  /// from being freed).
  @inlinable
  func addReader() {
    _ = _multicast_fetch_add(readersWord, 1)
  }

  /// Takes a broadcast off the readers, without the lock.
  ///
  /// - Returns: Whether it was the last reader of a retired buffer: the
  ///   caller must then take the buffer off the retired list and free it.
  @inlinable
  func removeReader() -> Bool {
    _multicast_fetch_sub(readersWord, 1) == Self.retiredFlag | 1
  }

  /// The number of broadcasts reading the buffer.
  ///
  /// With the lock held, a zero stays zero.
  var readerCount: Int {
    Int(_multicast_load_acquire(readersWord) & ~Self.retiredFlag)
  }

  /// Whether the buffer was replaced.
  var isRetired: Bool {
    _multicast_load_acquire(readersWord) & Self.retiredFlag != 0
  }

  /// Flags the buffer replaced; call with the lock held.
  ///
  /// - Returns: Whether broadcasts still read it, the last of which will free
  ///   it. If none does, the caller frees it.
  func retire() -> Bool {
    _multicast_fetch_or(readersWord, Self.retiredFlag) & ~Self.retiredFlag > 0
  }
}
