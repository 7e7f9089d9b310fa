// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import _MulticastAtomics

/// A fixed-capacity, append-only run of registrations, in one allocation (``_BufferLayout``).
///
/// A view of raw memory with no reference count, so that lending it to a broadcast costs no retain.
@usableFromInline
struct _ObserverBuffer<Payload, Index: _EntryIndex> {
  @usableFromInline
  let base: UnsafeMutableRawPointer

  @usableFromInline
  typealias Header = _BufferLayout.Header

  @inlinable
  init(base: UnsafeMutableRawPointer) { self.base = base }

  static func byteCount(capacity: Int) -> Int { layout(capacity: capacity).byteCount }

  static var alignment: Int { _BufferLayout.alignment(payload: Payload.self) }

  private static func layout(capacity: Int) -> _BufferLayout {
    _BufferLayout(capacity: capacity, payload: Payload.self, index: Index.self)
  }

  static func allocate(capacity: Int) -> _ObserverBuffer {
    precondition(capacity > 0, "only the empty buffer has no room, and it is embedded")
    let layout = layout(capacity: capacity)
    return initialize(
      at: .allocate(byteCount: layout.byteCount, alignment: alignment), layout: layout)
  }

  /// Makes an empty buffer in `memory`, sized and aligned for it: the storage's embedded one.
  static func initialize(at memory: UnsafeMutableRawPointer, capacity: Int) -> _ObserverBuffer {
    initialize(at: memory, layout: layout(capacity: capacity))
  }

  private static func initialize(
    at memory: UnsafeMutableRawPointer, layout: _BufferLayout
  ) -> _ObserverBuffer {
    let capacity = layout.capacity
    assert(MemoryLayout<Header>.offset(of: \Header.count) == 0, "countWord assumes it")
    // Each region is bound once, here: the accessors below assume it.
    memory.initializeMemory(
      as: Header.self, repeating: Header(count: 0, layout: layout), count: 1)
    (memory + _BufferLayout.stampsOffset)
      .bindMemory(to: UInt64.self, capacity: capacity)
    (memory + layout.entriesOffset).bindMemory(to: _ObserverEntry.self, capacity: capacity)
    (memory + layout.payloadsOffset).bindMemory(to: Payload.self, capacity: capacity)
    (memory + layout.indexOffset).bindMemory(to: UInt32.self, capacity: layout.indexBucketCount)
    let buffer = _ObserverBuffer(base: memory)
    buffer.index.removeAll()
    return buffer
  }

  /// Destroys the entries and frees the memory, unless this is the embedded empty buffer.
  @usableFromInline
  func deallocate() {
    entries.deinitialize(count: count)
    payloads.deinitialize(count: count)
    if capacity > 0 { base.deallocate() }
  }

  // MARK: Regions

  @inlinable
  var header: UnsafeMutablePointer<Header> {
    base.assumingMemoryBound(to: Header.self)
  }

  @inlinable
  var countWord: UnsafeMutablePointer<UInt64> {
    base.assumingMemoryBound(to: UInt64.self)
  }

  /// The number of initialized entries; set it with the lock held.
  @inlinable
  var count: Int {
    get { Int(truncatingIfNeeded: _multicast_load_relaxed(countWord)) }
    nonmutating set { _multicast_store_relaxed(countWord, UInt64(truncatingIfNeeded: newValue)) }
  }

  @inlinable
  var capacity: Int { header.pointee.layout.capacity }

  var isFull: Bool { count == capacity }

  /// The first stamp; unchecked: see ``stamp(at:)``.
  @inlinable
  var stamps: UnsafeMutablePointer<UInt64> {
    (base + _BufferLayout.stampsOffset).assumingMemoryBound(to: UInt64.self)
  }

  /// The first entry; unchecked: see ``entry(at:)``.
  @inlinable
  var entries: UnsafeMutablePointer<_ObserverEntry> {
    (base + header.pointee.layout.entriesOffset).assumingMemoryBound(to: _ObserverEntry.self)
  }

  /// The first payload; unchecked: see ``payload(at:)``.
  @inlinable
  var payloads: UnsafeMutablePointer<Payload> {
    (base + header.pointee.layout.payloadsOffset).assumingMemoryBound(to: Payload.self)
  }

  var index: Index {
    let layout = header.pointee.layout
    return Index(
      buckets: (base + layout.indexOffset).assumingMemoryBound(to: UInt32.self),
      bucketCount: layout.indexBucketCount)
  }

  /// The entry at `position`, which must be below ``capacity``.
  @inlinable
  func entry(at position: Int) -> UnsafeMutablePointer<_ObserverEntry> {
    assert(position >= 0 && position < capacity, "entry \(position) of \(capacity)")
    return entries + position
  }

  /// The payload at `position`, which must be below ``capacity``.
  @inlinable
  func payload(at position: Int) -> UnsafeMutablePointer<Payload> {
    assert(position >= 0 && position < capacity, "payload \(position) of \(capacity)")
    return payloads + position
  }

  /// The stamp at `position`, loaded atomically: safe without the lock.
  @inlinable
  func stamp(at position: Int) -> _EntryStamp {
    assert(position >= 0 && position < capacity, "stamp \(position) of \(capacity)")
    return _EntryStamp(rawValue: _multicast_load_acquire(stamps + position))
  }

  /// Sets the stamp of the entry at `position`; call with the lock held.
  func setStamp(_ stamp: _EntryStamp, at position: Int) {
    assert(position >= 0 && position < capacity, "stamp \(position) of \(capacity)")
    _multicast_store_release(stamps + position, stamp.rawValue)
  }
}
