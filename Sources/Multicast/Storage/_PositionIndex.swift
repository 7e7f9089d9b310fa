// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A hash index from an object's identity to its entry's position, sized once by the capacity.
///
/// Linear probing over 32-bit positions, at most three quarters full. It stores no keys but reads
/// them in the entries, so that a key is found after its object has died.
@usableFromInline
struct _PositionIndex: _EntryIndex {
  private static var empty: UInt32 { .max }

  @usableFromInline
  static var filesEntries: Bool { true }

  private let buckets: UnsafeMutablePointer<UInt32>
  private let mask: Int
  /// The shift that keeps as many high bits of a 64-bit hash as the bucket count needs.
  private let shift: Int

  @usableFromInline
  init(buckets: UnsafeMutablePointer<UInt32>, bucketCount: Int) {
    self.buckets = buckets
    self.mask = bucketCount - 1
    self.shift = UInt64.bitWidth - bucketCount.trailingZeroBitCount
  }

  /// A power of two at least four thirds of `capacity`.
  @usableFromInline
  static func bucketCount(forCapacity capacity: Int) -> Int {
    precondition(capacity < Int(empty), "more registrations than an index can hold")
    var count = 4
    while count * 3 < capacity * 4 { count *= 2 }
    return count
  }

  private func home(of key: ObjectIdentifier) -> Int {
    // Fibonacci hashing of the address, whose low bits are alignment.
    Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  @usableFromInline
  func position(
    of key: ObjectIdentifier, in entries: UnsafeMutablePointer<_ObserverEntry>
  ) -> Int? {
    bucket(of: key, in: entries).map { Int(buckets[$0]) }
  }

  private func bucket(
    of key: ObjectIdentifier, in entries: UnsafeMutablePointer<_ObserverEntry>
  ) -> Int? {
    var bucket = home(of: key)
    while buckets[bucket] != Self.empty {
      if entries[Int(buckets[bucket])].key == key { return bucket }
      bucket = (bucket + 1) & mask
    }
    return nil
  }

  @usableFromInline
  func insert(_ key: ObjectIdentifier, at position: Int) {
    var bucket = home(of: key)
    while buckets[bucket] != Self.empty { bucket = (bucket + 1) & mask }
    buckets[bucket] = UInt32(truncatingIfNeeded: position)
  }

  /// Shifts back the keys after `key`'s bucket, so that no probe sequence is broken.
  @usableFromInline
  func remove(
    _ key: ObjectIdentifier, in entries: UnsafeMutablePointer<_ObserverEntry>
  ) {
    guard var hole = bucket(of: key, in: entries) else { return }
    var next = (hole + 1) & mask
    while buckets[next] != Self.empty {
      let home = home(of: entries[Int(buckets[next])].key)
      // Move the key back unless its home lies cyclically in (hole, next].
      if (hole - home) & mask < (next - home) & mask {
        buckets[hole] = buckets[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    buckets[hole] = Self.empty
  }

  @usableFromInline
  func removeAll() {
    buckets.initialize(repeating: Self.empty, count: mask + 1)
  }

  @usableFromInline
  var count: Int {
    (0...mask).count { buckets[$0] != Self.empty }
  }
}
