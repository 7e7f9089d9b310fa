extension MulticastDelegate {
  /// Checks the internal consistency of the storage; traps if it is broken.
  func checkInvariants() {
    storage.checkInvariants()
  }
}
