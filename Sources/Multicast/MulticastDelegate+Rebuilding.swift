// A class-bound existential is laid out as the object pointer followed by one
// witness table pointer per protocol; a class reference is the pointer alone.
// Recording the witness table when an observer is added lets a broadcast
// rebuild the observer from its weakly loaded object without a runtime cast,
// which would cost more than the weak load itself. The layout is checked for
// each observer as it is added, and any observer that does not match it
// exactly falls back to a dynamic cast.

extension MulticastDelegate {
  /// The state word to record for `observer`: its witness table pointer, `0`
  /// for a bare class reference, or the dynamic-cast flag.
  func stateWord(for observer: Observer, object: AnyObject) -> UInt {
    let castFlag = _ObserverState.dynamicCastBit
    guard rebuildsObservers else { return castFlag }
    let wordSize = MemoryLayout<UInt>.size
    let address = UInt(bitPattern: ObjectIdentifier(object))
    let recorded: UInt? = withUnsafeBytes(of: observer) { bytes in
      guard bytes.count == wordSize || bytes.count == 2 * wordSize,
        bytes.load(as: UInt.self) == address
      else { return nil }
      guard bytes.count == 2 * wordSize else { return 0 }
      let witness = bytes.load(fromByteOffset: wordSize, as: UInt.self)
      return witness != 0 && witness & _ObserverState.flagBits == 0 ? witness : nil
    }
    guard let recorded else { return castFlag }
    // Trust the layout only if rebuilding reproduces the observer bit for bit.
    let rebuilt = Self.rebuild(object, recorded)
    let matches = withUnsafeBytes(of: rebuilt) { rebuiltBytes in
      withUnsafeBytes(of: observer) { rebuiltBytes.elementsEqual($0) }
    }
    return matches ? recorded : castFlag
  }

  /// Calls `body` with the observer registered as `object` with state word
  /// `word`, lent rather than copied.
  ///
  /// Every observer has a side table, since it is weakly referenced, so each
  /// retain and release of it takes the runtime's slow path. Lending the
  /// observer rebuilt in place over the reference the broadcast already holds
  /// avoids the retain and release that a new owned value would cost.
  @inlinable
  @inline(__always)
  static func withObserver(
    _ object: AnyObject, _ word: UInt, _ body: (Observer) throws -> Void
  ) rethrows {
    if word & _ObserverState.dynamicCastBit != 0 {
      try body(object as! Observer)
    } else if MemoryLayout<Observer>.size == MemoryLayout<AnyObject>.size {
      var reference = object
      try withUnsafeMutablePointer(to: &reference) { pointer in
        try pointer.withMemoryRebound(to: Observer.self, capacity: 1) { try body($0.pointee) }
      }
    } else {
      var existential = (object, word)
      try withUnsafeMutablePointer(to: &existential) { pointer in
        try pointer.withMemoryRebound(to: Observer.self, capacity: 1) { try body($0.pointee) }
      }
    }
  }

  /// Rebuilds an observer from its object and recorded witness table pointer.
  ///
  /// Valid only for a word that `stateWord(for:object:)` recorded.
  static func rebuild(_ object: AnyObject, _ witness: UInt) -> Observer {
    if MemoryLayout<Observer>.size == MemoryLayout<AnyObject>.size {
      return unsafeBitCast(object, to: Observer.self)
    }
    return unsafeBitCast((object, witness), to: Observer.self)
  }
}
