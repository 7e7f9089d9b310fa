/// A hash index from an object's identity to its entry's position in the
/// current buffer: open addressing with linear probing over 32-bit positions,
/// at most three quarters full, so it costs 5 to 11 bytes per key.
///
/// Keys are not stored here: the index asks the buffer for the key at a
/// position, so that a key can still be found after its object has died.
struct _PositionIndex {
  private static var empty: UInt32 { .max }

  private var slots: [UInt32]
  private var shift: Int
  /// The number of keys in the index.
  private(set) var count = 0

  /// Creates an index with room for `capacity` keys.
  init(capacity: Int = 0) {
    var bits = 2
    while (1 << bits) * 3 < capacity * 4 { bits += 1 }
    slots = Array(repeating: Self.empty, count: 1 << bits)
    shift = UInt.bitWidth - bits
  }

  /// The number of slots: what the index costs, in four-byte units.
  var capacity: Int { slots.count }

  private func home(of key: ObjectIdentifier) -> Int {
    // Fibonacci hashing of the address, whose low bits are alignment.
    Int(truncatingIfNeeded: (UInt(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// The position filed under `key`, if any.
  func position(of key: ObjectIdentifier, keyAt: (Int) -> ObjectIdentifier) -> Int? {
    slot(of: key, keyAt: keyAt).map { Int(slots[$0]) }
  }

  private func slot(of key: ObjectIdentifier, keyAt: (Int) -> ObjectIdentifier) -> Int? {
    let mask = slots.count - 1
    var slot = home(of: key)
    while slots[slot] != Self.empty {
      if keyAt(Int(slots[slot])) == key { return slot }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Files `position` under `key`, which must not be in the index.
  mutating func insert(_ key: ObjectIdentifier, at position: Int, keyAt: (Int) -> ObjectIdentifier)
  {
    precondition(position < Int(Self.empty), "more registrations than an index can hold")
    if (count + 1) * 4 > slots.count * 3 {
      // Room for as many keys as there are slots now: twice the slots.
      var larger = _PositionIndex(capacity: slots.count)
      for filed in slots where filed != Self.empty {
        larger.insert(keyAt(Int(filed)), at: Int(filed), keyAt: keyAt)
      }
      self = larger
    }
    let mask = slots.count - 1
    var slot = home(of: key)
    while slots[slot] != Self.empty { slot = (slot + 1) & mask }
    slots[slot] = UInt32(position)
    count += 1
  }

  /// Removes `key`, shifting back the keys after it so that no probe
  /// sequence is broken.
  mutating func remove(_ key: ObjectIdentifier, keyAt: (Int) -> ObjectIdentifier) {
    guard var hole = slot(of: key, keyAt: keyAt) else { return }
    let mask = slots.count - 1
    var next = (hole + 1) & mask
    while slots[next] != Self.empty {
      let home = home(of: keyAt(Int(slots[next])))
      // Move the key back unless its home lies cyclically in (hole, next].
      let distanceToNext = (next - home) & mask
      let distanceToHole = (hole - home) & mask
      if distanceToHole < distanceToNext {
        slots[hole] = slots[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    slots[hole] = Self.empty
    count -= 1
  }
}
