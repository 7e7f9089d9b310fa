// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension MulticastDelegate {
  /// Checks the internal consistency of the storage; traps if it is broken.
  func checkInvariants() {
    storage.checkInvariants()
  }
}
