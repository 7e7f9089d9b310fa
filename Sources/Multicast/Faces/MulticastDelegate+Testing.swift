// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// What tests look at beyond the public API.

extension MulticastDelegate {
  /// The number of registration slots and index buckets the storage holds:
  /// proportional to the live observers, however many have died.
  var storageCapacity: Int { storage.capacity }

  /// Whether a registration, alive or dead, is filed under `key`.
  func hasRegistration(forKey key: ObjectIdentifier) -> Bool {
    storage.hasEntry(forKey: key)
  }

  /// The number of replaced buffers kept for broadcasts still reading them.
  var retiredBufferCount: Int { storage.retiredBufferCount }

  /// The current buffer's count of entries and its room.
  var bufferFill: (count: Int, capacity: Int) { storage.bufferFill }

  #if DEBUG
  /// Runs `body` in every broadcast that begins without the lock.
  ///
  /// It runs after the broadcast reads the readers' version and before it
  /// counts itself. Set it before the multicast delegate is shared.
  func beforeCountingBroadcast(_ body: @escaping () -> Void) {
    storage.state.pointee.beforeCounting = body
  }

  /// Runs `body` in every broadcast that begins without the lock, after it
  /// reads the words it begins with and before it checks them.
  func afterReadingBroadcastWords(_ body: @escaping () -> Void) {
    storage.state.pointee.afterReadingWords = body
  }

  /// Runs `body` in every sweep, after it has loaded every observer and let
  /// each go, and before it takes the lock to drop the dead.
  func betweenSweepPhases(_ body: @escaping () -> Void) {
    storage.state.pointee.betweenSweepPhases = body
  }
  #endif
}

extension MulticastDelegate where Observer: Sendable {
  /// The number of broadcasts of this multicast delegate queued for other
  /// isolations and not yet taken for delivery.
  var waitingBroadcastCount: Int {
    _Destination.all.reduce(0) { $0 + $1.waitingCount(madeBy: self) }
  }
}
