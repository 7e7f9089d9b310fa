// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// How a buffer finds its entries by their object's identity (README.md, section 1).
@usableFromInline
protocol _EntryIndex {
  /// The number of 32-bit buckets a buffer of `capacity` entries sets aside.
  static func bucketCount(forCapacity capacity: Int) -> Int

  /// Whether the index files entries at all (I10).
  static var filesEntries: Bool { get }

  init(buckets: UnsafeMutablePointer<UInt32>, bucketCount: Int)

  /// The position filed under `key`, if any; `entries` holds the keys.
  func position(of key: ObjectIdentifier, in entries: UnsafeMutablePointer<_ObserverEntry>) -> Int?

  /// Files `position` under `key`, which must not be filed.
  func insert(_ key: ObjectIdentifier, at position: Int)

  /// Takes `key` out, if it is filed; `entries` holds the keys.
  func remove(_ key: ObjectIdentifier, in entries: UnsafeMutablePointer<_ObserverEntry>)

  func removeAll()

  /// The number of keys filed; O(buckets).
  var count: Int { get }
}

/// No index, and no cost: registrations are found by their sequence numbers.
@usableFromInline
struct _NoIndex: _EntryIndex {
  @usableFromInline
  static func bucketCount(forCapacity capacity: Int) -> Int { 0 }
  @usableFromInline
  static var filesEntries: Bool { false }
  @usableFromInline
  init(buckets: UnsafeMutablePointer<UInt32>, bucketCount: Int) {}
  @usableFromInline
  func position(
    of key: ObjectIdentifier, in entries: UnsafeMutablePointer<_ObserverEntry>
  ) -> Int? { nil }
  @usableFromInline
  func insert(_ key: ObjectIdentifier, at position: Int) {}
  @usableFromInline
  func remove(_ key: ObjectIdentifier, in entries: UnsafeMutablePointer<_ObserverEntry>) {}
  @usableFromInline
  func removeAll() {}
  @usableFromInline
  var count: Int { 0 }
}
