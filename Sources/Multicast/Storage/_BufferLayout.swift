// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Where each region of a buffer lies, computed once and kept in its header.
///
/// ```
/// | header | stamps 0..<c | entries 0..<c | payloads 0..<c | index buckets |
/// ```
@usableFromInline
struct _BufferLayout {
  @usableFromInline let capacity: Int
  @usableFromInline let entriesOffset: Int
  @usableFromInline let payloadsOffset: Int
  let indexOffset: Int
  let indexBucketCount: Int
  let byteCount: Int

  /// What a buffer begins with.
  ///
  /// Not generic, so that reaching it in unoptimized code asks the runtime for no metadata.
  @usableFromInline
  struct Header {
    /// First, so that memory bound to the header is bound to `UInt64` where the count lies.
    @usableFromInline var count: UInt64
    @usableFromInline let layout: _BufferLayout
  }

  /// The stamps come right after the header, whatever the capacity.
  @inlinable
  static var stampsOffset: Int {
    aligned(MemoryLayout<Header>.size, to: MemoryLayout<UInt64>.alignment)
  }

  init<Payload, Index: _EntryIndex>(capacity: Int, payload: Payload.Type, index: Index.Type) {
    self.capacity = capacity
    let stampsEnd = Self.stampsOffset + capacity * MemoryLayout<UInt64>.stride
    entriesOffset = Self.aligned(stampsEnd, to: MemoryLayout<_ObserverEntry>.alignment)
    let entriesEnd = entriesOffset + capacity * MemoryLayout<_ObserverEntry>.stride
    payloadsOffset = Self.aligned(entriesEnd, to: MemoryLayout<Payload>.alignment)
    let payloadsEnd = payloadsOffset + capacity * MemoryLayout<Payload>.stride
    indexOffset = Self.aligned(payloadsEnd, to: MemoryLayout<UInt32>.alignment)
    indexBucketCount = Index.bucketCount(forCapacity: capacity)
    byteCount = indexOffset + indexBucketCount * MemoryLayout<UInt32>.stride
  }

  static func alignment<Payload>(payload: Payload.Type) -> Int {
    Swift.max(
      MemoryLayout<Header>.alignment, MemoryLayout<UInt64>.alignment,
      MemoryLayout<_ObserverEntry>.alignment, MemoryLayout<Payload>.alignment,
      MemoryLayout<UInt32>.alignment)
  }

  /// `offset` rounded up to a multiple of `alignment`, a power of two.
  @inlinable
  static func aligned(_ offset: Int, to alignment: Int) -> Int {
    (offset + alignment - 1) & ~(alignment - 1)
  }
}
