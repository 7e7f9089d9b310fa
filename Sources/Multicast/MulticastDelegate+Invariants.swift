extension MulticastDelegate {
  /// The number of registration slots and index entries the storage holds:
  /// proportional to the live observers, however many have died.
  var storageCapacity: Int { storage.capacity }

  /// Checks the internal consistency of the storage; traps if it is broken.
  func checkInvariants() {
    storage.checkInvariants()
  }
}
