/// The count and capacity of an ``_ObserverBuffer``.
@usableFromInline
struct _ObserverBufferHeader {
  @usableFromInline
  var count: Int
  let capacity: Int
}

/// A fixed-capacity, append-only array of cells in registration order.
///
/// A broadcast reads the cells below the count it saw under the storage's lock
/// while registrations append above it, so appending never copies. A buffer is
/// never compacted in place: the storage replaces it instead, and a broadcast
/// that holds the old one finishes with it.
@usableFromInline
final class _ObserverBuffer<Payload>: ManagedBuffer<_ObserverBufferHeader, _ObserverCell<Payload>> {
  static func make(capacity: Int) -> _ObserverBuffer {
    let buffer = create(minimumCapacity: capacity) { _ in
      _ObserverBufferHeader(count: 0, capacity: capacity)
    }
    return unsafeDowncast(buffer, to: _ObserverBuffer.self)
  }

  var isFull: Bool { header.count == header.capacity }

  /// Appends a cell.
  ///
  /// The buffer must not be full.
  func append(_ cell: _ObserverCell<Payload>) {
    withUnsafeMutablePointers { header, cells in
      precondition(header.pointee.count < header.pointee.capacity)
      (cells + header.pointee.count).initialize(to: cell)
      header.pointee.count += 1
    }
  }

  /// Calls `body` with the first `count` cells, without reading the header:
  /// the way to read cells outside the lock, with a count read under it.
  func withCells<R>(
    prefix count: Int, _ body: (UnsafeBufferPointer<_ObserverCell<Payload>>) throws -> R
  ) rethrows -> R {
    try withUnsafeMutablePointerToElements { cells in
      try body(UnsafeBufferPointer(start: cells, count: count))
    }
  }

  /// Calls `body` with the cells in registration order.
  ///
  /// Call with the lock held.
  func withCells<R>(_ body: (UnsafeBufferPointer<_ObserverCell<Payload>>) throws -> R) rethrows -> R
  {
    try withUnsafeMutablePointers { header, cells in
      try body(UnsafeBufferPointer(start: cells, count: header.pointee.count))
    }
  }

  deinit {
    _ = withUnsafeMutablePointers { header, cells in
      cells.deinitialize(count: header.pointee.count)
    }
  }
}
