// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// What tests look at beyond the public API.

extension _ObserverStorage {
  /// The entries and index buckets there is room for: it must stay proportional to the live ones.
  var capacity: Int {
    read { state in state.buffer.capacity + state.buffer.header.pointee.layout.indexBucketCount }
  }

  /// The current buffer's count of entries, tombstones included, and room.
  var bufferFill: (count: Int, capacity: Int) {
    read { state in (state.buffer.count, state.buffer.capacity) }
  }

  var retiredBufferCount: Int {
    read { state in state.retiredBeforeFlip.count + state.retiredSinceFlip.count }
  }

}

extension _ObserverStorage where Index == _PositionIndex {
  /// Whether an entry is filed under `key`, alive or dead.
  func hasEntry(forKey key: ObjectIdentifier) -> Bool {
    read { state in state.buffer.position(of: key) != nil }
  }
}
