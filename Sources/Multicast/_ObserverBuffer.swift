// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import _MulticastAtomics

/// A fixed-capacity, append-only run of registrations in registration order,
/// in one allocation: a header, the registrations' words, entries and
/// payloads, and, for a storage keyed by identity, the index of their
/// positions.
///
/// ```
/// | header | words 0..<c | entries 0..<c | payloads 0..<c | index slots |
/// ```
///
/// A broadcast reads the entries below the count it saw under the storage's
/// lock while registrations append above it, so appending never moves
/// anything a broadcast reads. The storage moves entries (compacts in place,
/// or moves them to a larger buffer) only when no broadcast reads the buffer:
/// ``readers`` counts them. Otherwise it copies the entries to a new buffer and
/// marks the old words moved, so that the broadcasts reading them move over.
///
/// It is a view of raw memory that the storage allocates and frees: it has
/// no reference count of its own, so lending it to a broadcast costs no
/// retain.
@usableFromInline
struct _ObserverBuffer<Payload> {
  @usableFromInline
  let base: UnsafeMutableRawPointer

  @usableFromInline
  struct Header {
    /// The number of initialized entries.
    @usableFromInline var count: Int
    @usableFromInline let capacity: Int
    /// The broadcasts reading this buffer; written with the lock held.
    @usableFromInline var readers: Int
    /// The number of index slots after the entries; 0 when unindexed.
    let indexSlotCount: Int
  }

  @usableFromInline
  typealias Entry = _ObserverEntry

  @inlinable
  init(base: UnsafeMutableRawPointer) { self.base = base }

  @inlinable
  static var wordsOffset: Int {
    (MemoryLayout<Header>.size + 7) & ~7
  }

  @inlinable
  static func entriesOffset(capacity: Int) -> Int {
    let alignment = MemoryLayout<Entry>.alignment
    return (wordsOffset + capacity * MemoryLayout<UInt64>.stride + alignment - 1) & ~(alignment - 1)
  }

  @inlinable
  static func payloadsOffset(capacity: Int) -> Int {
    let alignment = MemoryLayout<Payload>.alignment
    return
      (entriesOffset(capacity: capacity) + capacity * MemoryLayout<Entry>.stride
      + alignment - 1) & ~(alignment - 1)
  }

  private static func indexOffset(capacity: Int) -> Int {
    (payloadsOffset(capacity: capacity) + capacity * MemoryLayout<Payload>.stride + 3) & ~3
  }

  /// Allocates an empty buffer with room for `capacity` entries, indexed by
  /// identity or not.
  static func allocate(capacity: Int, indexed: Bool) -> _ObserverBuffer {
    precondition(capacity > 0, "only the empty buffer has no room, and it is embedded")
    return initialize(
      at: .allocate(
        byteCount: byteCount(capacity: capacity, indexed: indexed), alignment: alignment),
      capacity: capacity, indexed: indexed)
  }

  /// The bytes a buffer of `capacity` entries takes.
  static func byteCount(capacity: Int, indexed: Bool) -> Int {
    let slotCount = indexed ? _PositionIndex.slotCount(forCapacity: capacity) : 0
    return indexOffset(capacity: capacity) + slotCount * MemoryLayout<UInt32>.stride
  }

  /// The alignment of a buffer's memory.
  static var alignment: Int {
    Swift.max(
      MemoryLayout<Header>.alignment, MemoryLayout<Entry>.alignment,
      MemoryLayout<Payload>.alignment, 8)
  }

  /// Makes an empty buffer of `capacity` entries in `memory`, which must
  /// have ``byteCount(capacity:indexed:)`` bytes aligned to ``alignment``.
  ///
  /// The storage embeds its first buffer, with no room, in its own
  /// allocation, so that a registry that never gets an observer costs one
  /// allocation; ``deallocate()`` leaves that one alone.
  static func initialize(
    at memory: UnsafeMutableRawPointer, capacity: Int, indexed: Bool
  ) -> _ObserverBuffer {
    let slotCount = indexed ? _PositionIndex.slotCount(forCapacity: capacity) : 0
    let buffer = _ObserverBuffer(base: memory)
    buffer.base.initializeMemory(
      as: Header.self,
      repeating: Header(count: 0, capacity: capacity, readers: 0, indexSlotCount: slotCount),
      count: 1)
    buffer.index?.removeAll()
    return buffer
  }

  /// Destroys the entries and frees the memory, unless this is the empty
  /// buffer embedded in the storage's allocation.
  @usableFromInline
  func deallocate() {
    entries.deinitialize(count: count)
    payloads.deinitialize(count: count)
    if capacity > 0 { base.deallocate() }
  }

  @inlinable
  var header: UnsafeMutablePointer<Header> {
    base.assumingMemoryBound(to: Header.self)
  }

  @inlinable
  var count: Int {
    get { header.pointee.count }
    nonmutating set { header.pointee.count = newValue }
  }

  @inlinable
  var capacity: Int { header.pointee.capacity }

  @inlinable
  var readers: Int {
    get { header.pointee.readers }
    nonmutating set { header.pointee.readers = newValue }
  }

  var isFull: Bool { count == capacity }

  /// The entries' words; read them with ``word(at:)`` outside the lock.
  @inlinable
  var words: UnsafeMutablePointer<UInt64> {
    (base + Self.wordsOffset).assumingMemoryBound(to: UInt64.self)
  }

  @inlinable
  var entries: UnsafeMutablePointer<Entry> {
    (base + Self.entriesOffset(capacity: capacity)).assumingMemoryBound(to: Entry.self)
  }

  @inlinable
  var payloads: UnsafeMutablePointer<Payload> {
    (base + Self.payloadsOffset(capacity: capacity)).assumingMemoryBound(to: Payload.self)
  }

  /// The index of keyed entries' positions, or `nil` for a storage whose
  /// registrations are their own handles.
  var index: _PositionIndex? {
    let slotCount = header.pointee.indexSlotCount
    guard slotCount > 0 else { return nil }
    return _PositionIndex(
      slots: (base + Self.indexOffset(capacity: capacity)).assumingMemoryBound(to: UInt32.self),
      slotCount: slotCount)
  }

  /// The word of the entry at `position`, loaded atomically.
  ///
  /// Safe without the lock: the word may be flagged concurrently, with the
  /// lock held, by the atomic store in ``setWord(_:at:)``.
  @inlinable
  func word(at position: Int) -> _EntryWord {
    _EntryWord(rawValue: _multicast_load_acquire(words + position))
  }

  /// Sets the word of the entry at `position`; call with the lock held.
  func setWord(_ word: _EntryWord, at position: Int) {
    _multicast_store_release(words + position, word.rawValue)
  }

  /// Appends an entry.
  ///
  /// The buffer must not be full. Call with the lock held.
  func append(_ entry: consuming Entry, payload: Payload, word: _EntryWord) {
    let position = count
    precondition(position < capacity, "appending to a full buffer")
    let key = entry.key
    (entries + position).initialize(to: entry)
    (payloads + position).initialize(to: payload)
    words[position] = word.rawValue
    index?.insert(key, at: position)
    count = position + 1
  }

  /// Appends the registration at `position` of `other`, moving it out.
  ///
  /// This buffer must not be full. Call with the lock held.
  func appendMoving(_ position: Int, of other: _ObserverBuffer) {
    let destination = count
    precondition(destination < capacity, "appending to a full buffer")
    (entries + destination).initialize(to: (other.entries + position).move())
    (payloads + destination).initialize(to: (other.payloads + position).move())
    words[destination] = other.words[position]
    index?.insert(entries[destination].key, at: destination)
    count = destination + 1
  }

  /// Moves the registration at `source` to the free `destination`.
  ///
  /// Call with the lock held.
  func move(_ source: Int, to destination: Int) {
    (entries + destination).initialize(to: (entries + source).move())
    (payloads + destination).initialize(to: (payloads + source).move())
    words[destination] = words[source]
  }

  /// The first position below `count` whose sequence is at least `sequence`.
  ///
  /// O(log n). Call with the lock held.
  func position(ofFirst sequence: UInt64, below count: Int) -> Int {
    var (low, high) = (0, count)
    while low < high {
      let middle = (low + high) / 2
      if _EntryWord(rawValue: words[middle]).sequence < sequence {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }
}
