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
    let castFlag = _ObserverCell<Void>.dynamicCastBit
    guard rebuildsObservers else { return castFlag }
    let wordSize = MemoryLayout<UInt>.size
    let address = UInt(bitPattern: ObjectIdentifier(object))
    let recorded: UInt? = withUnsafeBytes(of: observer) { bytes in
      guard bytes.count == wordSize || bytes.count == 2 * wordSize,
        bytes.load(as: UInt.self) == address
      else { return nil }
      guard bytes.count == 2 * wordSize else { return 0 }
      let witness = bytes.load(fromByteOffset: wordSize, as: UInt.self)
      return witness != 0 && witness & _ObserverCell<Void>.flagBits == 0 ? witness : nil
    }
    guard let recorded else { return castFlag }
    // Trust the layout only if rebuilding reproduces the observer bit for bit.
    let rebuilt = Self.rebuild(object, recorded)
    let matches = withUnsafeBytes(of: rebuilt) { rebuiltBytes in
      withUnsafeBytes(of: observer) { rebuiltBytes.elementsEqual($0) }
    }
    return matches ? recorded : castFlag
  }

  /// The observer registered as `object` with state word `word`.
  @inlinable
  @inline(__always)
  static func observer(_ object: AnyObject, _ word: UInt) -> Observer {
    if word & _ObserverCell<Void>.dynamicCastBit == 0 {
      return rebuild(object, word)
    }
    return object as! Observer
  }

  /// Rebuilds an observer from its object and recorded witness table pointer.
  ///
  /// Valid only for a word that `stateWord(for:object:)` recorded.
  @inlinable
  @inline(__always)
  static func rebuild(_ object: AnyObject, _ witness: UInt) -> Observer {
    if MemoryLayout<Observer>.size == MemoryLayout<AnyObject>.size {
      return unsafeBitCast(object, to: Observer.self)
    }
    return unsafeBitCast((object, witness), to: Observer.self)
  }
}
