// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// What tests look at beyond the public API.

extension EventSender {
  /// The number of registration slots the storage holds.
  var storageCapacity: Int { core.storage.capacity }

  /// The number of live subscriptions.
  ///
  /// O(n).
  var liveCount: Int { core.storage.liveCount }

  /// Checks the internal consistency of the storage; traps if it is broken.
  func checkInvariants() {
    core.storage.checkInvariants()
  }
}

extension _EventCore {
  /// The number of this event's sends queued on its destinations and not yet taken
  /// for delivery (other subjects' work on the same destinations is not
  /// counted).
  var waitingCount: Int {
    destinationsForTesting.reduce(0) { $0 + $1.waitingCount(madeBy: self) }
  }
}
