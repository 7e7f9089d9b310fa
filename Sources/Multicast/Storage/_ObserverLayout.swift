// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// The Swift ABI's layout of an observer (TypeLayout.rst), read in this one place: a class
// reference is the object pointer; a class-bound existential adds a witness table pointer
// per protocol. With the table recorded, a broadcast rebuilds the observer without a cast.

/// The witness table recorded for an observer: a multicast delegate's payload.
@usableFromInline
struct _WitnessTable: Equatable {
  /// The table's address, or one of the two values no table can have.
  @usableFromInline
  let rawValue: UInt

  @inlinable
  init(rawValue: UInt) { self.rawValue = rawValue }

  /// No table: the observer is a bare class reference.
  @usableFromInline
  static var none: _WitnessTable { _WitnessTable(rawValue: 0) }

  /// The observer is cast at each call: not one object pointer and at most one table.
  @usableFromInline
  static var needsCast: _WitnessTable { _WitnessTable(rawValue: 1) }
}

/// How values of `Observer` are taken apart and rebuilt without a cast.
@usableFromInline
enum _ObserverLayout<Observer> {
  /// Whether every `Observer` is a class instance: a class, or a class-bound existential.
  static var isClassBound: Bool {
    if Observer.self is AnyObject.Type { return true }
    precondition(
      _ExistentialMetadata.isReadAsTheRuntimeLaysItOut,
      "the runtime lays out existential metadata otherwise than this library reads it")
    return _ExistentialMetadata.isClassBound(Observer.self)
  }

  /// Calls `body` with class-bound `observer`'s first word, its object, borrowed: no retain.
  @inlinable
  static func withObject<Result>(
    ofClassBound observer: Observer, _ body: (AnyObject) -> Result
  ) -> Result {
    let address = withUnsafeBytes(of: observer) { $0.load(as: UnsafeRawPointer.self) }
    return Unmanaged<AnyObject>.fromOpaque(address)._withUnsafeGuaranteedRef(body)
  }

  /// The witness table to record for `observer`, whose object is `object`.
  @inlinable
  static func witnessTable(of observer: Observer, object: AnyObject) -> _WitnessTable {
    let wordSize = MemoryLayout<UInt>.size
    let address = UInt(bitPattern: ObjectIdentifier(object))
    let table: _WitnessTable? = withUnsafeBytes(of: observer) { bytes in
      guard bytes.count == wordSize || bytes.count == 2 * wordSize,
        bytes.load(as: UInt.self) == address
      else { return nil }
      guard bytes.count == 2 * wordSize else { return _WitnessTable.none }
      let table = _WitnessTable(rawValue: bytes.load(fromByteOffset: wordSize, as: UInt.self))
      return table.rawValue > _WitnessTable.needsCast.rawValue ? table : nil
    }
    return table ?? .needsCast
  }

  /// Calls `body` with the observer rebuilt from `object`, which it consumes, and `table`.
  @inlinable
  @inline(__always)
  static func withObserver(
    _ object: consuming AnyObject, _ table: _WitnessTable, _ body: (Observer) throws -> Void
  ) rethrows {
    try body(observer(consume object, table))
  }

  /// The observer rebuilt from `object`, which it consumes, and `table`.
  @inlinable
  @inline(__always)
  static func observer(_ object: consuming AnyObject, _ table: _WitnessTable) -> Observer {
    if table == .needsCast { return object as! Observer }
    // Through a slot laid out as the observer: no retain, and nothing left in it to release.
    var slot: (AnyObject?, UInt) = (consume object, table.rawValue)
    return withUnsafeMutablePointer(to: &slot) { pointer in
      let raw = UnsafeMutableRawPointer(pointer)
      let observer = raw.withMemoryRebound(to: Observer.self, capacity: 1) { $0.move() }
      raw.initializeMemory(as: (AnyObject?, UInt).self, to: (nil, 0))
      return observer
    }
  }
}

/// What the library reads of an existential's metadata (TypeMetadata.rst): its kind, 0x303,
/// then flags whose top bit is clear when it is class-bound.
enum _ExistentialMetadata {
  static func isClassBound(_ type: Any.Type) -> Bool {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let kind = metadata.load(as: UInt.self)
    let flags = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self)
    return kind == 0x303 && flags & 0x8000_0000 == 0
  }

  /// Whether that reading is right for two known existentials; computed once.
  static let isReadAsTheRuntimeLaysItOut =
    isClassBound((any ClassBoundProbe).self) && !isClassBound((any UnboundProbe).self)

  private protocol ClassBoundProbe: AnyObject {}
  private protocol UnboundProbe {}
}
