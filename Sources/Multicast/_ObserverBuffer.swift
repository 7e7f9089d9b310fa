/// The count and capacity of an ``_ObserverBuffer``.
@usableFromInline
struct _ObserverBufferHeader {
  @usableFromInline
  var count: Int
  let capacity: Int
}

/// A fixed-capacity, append-only array of entries in registration order.
///
/// A broadcast reads the entries below the count it saw under the storage's
/// lock while registrations append above it, so appending never copies. A
/// buffer is never compacted in place: the storage replaces it with a new one
/// and bumps its generation, and a broadcast that holds the old one moves over.
@usableFromInline
final class _ObserverBuffer<Payload>: ManagedBuffer<
  _ObserverBufferHeader, _ObserverEntry<Payload>
>
{
  static func make(capacity: Int) -> _ObserverBuffer {
    let buffer = create(minimumCapacity: capacity) { _ in
      _ObserverBufferHeader(count: 0, capacity: capacity)
    }
    return unsafeDowncast(buffer, to: _ObserverBuffer.self)
  }

  var count: Int { header.count }
  var isFull: Bool { header.count == header.capacity }

  /// Appends an entry.
  ///
  /// The buffer must not be full.
  func append(_ object: AnyObject, state: UInt, sequence: UInt64, payload: Payload) {
    withUnsafeMutablePointers { header, entries in
      precondition(header.pointee.count < header.pointee.capacity)
      (entries + header.pointee.count).initialize(
        to: _ObserverEntry(object: object, state: state, sequence: sequence, payload: payload))
      header.pointee.count += 1
    }
  }

  /// Calls `body` with the entries.
  ///
  /// Outside the lock, pass a `count` read under it: the header may be changing.
  func withEntries<R>(
    count: Int? = nil, _ body: (UnsafeMutablePointer<_ObserverEntry<Payload>>, Int) throws -> R
  ) rethrows -> R {
    try withUnsafeMutablePointers { header, entries in
      try body(entries, count ?? header.pointee.count)
    }
  }

  /// The first position below `count` whose sequence is at least `sequence`.
  func position(ofFirst sequence: UInt64, below count: Int) -> Int {
    withUnsafeMutablePointerToElements { entries in
      var (low, high) = (0, count)
      while low < high {
        let middle = (low + high) / 2
        if entries[middle].sequence < sequence { low = middle + 1 } else { high = middle }
      }
      return low
    }
  }

  deinit {
    _ = withUnsafeMutablePointers { header, entries in
      entries.deinitialize(count: header.pointee.count)
    }
  }
}
