public import Synchronization

/// The registry behind every face of the library: entries in registration
/// order, an identity index for keyed registrations, a lock, and the rules
/// for pruning.
///
/// - A broadcast takes the lock only to read the current buffer, its count and
///   the next sequence number, then calls observers with no lock held. Entries
///   appended later lie above that count. Entries removed later are marked in
///   the current buffer, so the broadcast skips them when their turn comes.
/// - When the buffer is replaced during a broadcast, the storage's generation
///   changes. The broadcast notices before its next entry and moves to the new
///   buffer, at the first entry whose sequence it has not reached, so it still
///   sees every later removal.
/// - Removal marks an entry and leaves it in place (a tombstone); registration
///   appends. When a buffer is full, or more than half of it is tombstones, it
///   is replaced by one holding only the entries still registered and alive,
///   with half as much room again. Each replacement costs O(n) and follows at
///   least n/2 registrations or removals, so both are amortized O(1), and the
///   storage stays proportional to the live observers however many die.
/// - Nothing that can run user code (an observer's or a payload's
///   deinitializer) is released with the lock held: mutations collect what
///   they drop, and it is released after unlocking.
@usableFromInline
final class _ObserverStorage<Payload>: @unchecked Sendable {
  // @unchecked Sendable: every stored property but `generation` is read and
  // written only with `lock` held, and `generation` is atomic. Outside the lock
  // a broadcast reads only entries of a buffer below a count it read under the
  // lock; those entries are never written again except for their atomic state
  // word, and weak loads are made thread-safe by the runtime. The stress tests
  // in MulticastDelegateConcurrencyTests exercise this from many tasks.
  private let lock = _Lock()
  private var buffer: _ObserverBuffer<Payload>
  /// Bumped, with the lock held, each time `buffer` is replaced.
  @usableFromInline
  let generation = Atomic<Int>(0)
  /// Whether registrations are keyed by their object's identity, one per
  /// object (`MulticastDelegate`), or are their own handles (the faces).
  private let isKeyed: Bool
  /// Positions of the registered entries by key; empty unless `isKeyed`.
  private var index = _PositionIndex()
  private var nextSequence: UInt64 = 0
  /// The number of entries in `buffer` that are marked removed.
  private var tombstones = 0

  private static var minimumCapacity: Int { 4 }

  init(isKeyed: Bool) {
    self.isKeyed = isKeyed
    buffer = .make(capacity: 0)
  }

  /// What a mutation dropped, released after the lock is released.
  private struct Garbage {
    var buffers: [_ObserverBuffer<Payload>] = []
    var survivors: [AnyObject] = []
  }

  /// Runs `body` with the lock held, then releases what it dropped.
  private func mutate<R>(_ body: (inout Garbage) -> R) -> R {
    let (result, garbage) = lock.withLock {
      var garbage = Garbage()
      let result = body(&garbage)
      return (result, garbage)
    }
    _ = consume garbage
    return result
  }

  // MARK: Broadcasting

  /// Where a broadcast is: the buffer it reads, the next position, the count
  /// of positions it may visit, and the generation of that buffer.
  @usableFromInline
  struct Cursor {
    @usableFromInline var buffer: _ObserverBuffer<Payload>
    @usableFromInline var position: Int
    @usableFromInline var count: Int
    @usableFromInline var generation: Int
    /// The first sequence number the broadcast does not visit.
    let end: UInt64
  }

  @usableFromInline
  func startBroadcast() -> Cursor {
    lock.withLock {
      Cursor(
        buffer: buffer, position: 0, count: buffer.count,
        generation: generation.load(ordering: .relaxed), end: nextSequence)
    }
  }

  /// Moves `cursor` from a replaced buffer to the current one, at the first
  /// entry it has not reached.
  @usableFromInline
  func relocate(_ cursor: inout Cursor) {
    let next = cursor.buffer.withEntries(count: cursor.count) { entries, _ in
      entries[cursor.position].sequence
    }
    let (current, count, currentGeneration) = lock.withLock {
      (buffer, buffer.count, generation.load(ordering: .relaxed))
    }
    cursor.buffer = current
    cursor.generation = currentGeneration
    cursor.position = current.position(ofFirst: next, below: count)
    cursor.count = current.position(ofFirst: cursor.end, below: count)
  }

  /// Calls `body` with each live registration that existed when the call
  /// began and is not removed before its turn, in registration order, with no
  /// lock held, until `body` returns `false`.
  @inlinable
  func visit(
    _ body: (_ object: consuming AnyObject, _ word: UInt, _ payload: Payload) throws -> Bool
  )
    rethrows
  {
    var cursor = startBroadcast()
    while true {
      let interruptedAt: Int? = try cursor.buffer.withUnsafeMutablePointerToElements { entries in
        var position = cursor.position
        while position < cursor.count {
          if generation.load(ordering: .relaxed) != cursor.generation { return position }
          if let (object, word) = entries[position].load() {
            guard try body(object, word, entries[position].payload) else { return nil }
          }
          position += 1
        }
        return nil
      }
      guard let position = interruptedAt else { return }
      cursor.position = position
      relocate(&cursor)
    }
  }

  /// Calls `body` with each live registration, as ``visit(_:)`` does.
  @inlinable
  func forEach(
    _ body: (_ object: consuming AnyObject, _ word: UInt, _ payload: Payload) throws -> Void
  )
    rethrows
  {
    try visit { object, word, payload in
      try body(object, word, payload)
      return true
    }
  }

  /// The number of live registrations.
  ///
  /// O(n).
  var liveCount: Int {
    var count = 0
    visit { _, _, _ in
      count += 1
      return true
    }
    return count
  }

  /// Whether there is no live registration.
  ///
  /// O(n) when only dead ones are left.
  var isEmpty: Bool {
    var isEmpty = true
    visit { _, _, _ in
      isEmpty = false
      return false
    }
    return isEmpty
  }

  // MARK: Registrations keyed by identity

  /// Registers `object` unless it is already registered.
  ///
  /// An entry under the same key whose object is gone belonged to a dead
  /// object at the same address: it is removed and the new object goes last.
  /// - Returns: `true` if the object was not registered before.
  @discardableResult
  func insert(_ object: AnyObject, state: UInt, payload: Payload) -> Bool {
    precondition(isKeyed, "insert(_:state:payload:) needs a keyed storage")
    let key = ObjectIdentifier(object)
    return mutate { garbage in
      if let position = index.position(of: key, keyAt: key(at:)) {
        // The caller holds `object`, so this load cannot release the last reference.
        if referent(at: position) === object { return false }
        index.remove(key, keyAt: key(at:))
        markRemoved(at: position, &garbage)
      }
      let position = append(object, state: state, payload: payload, &garbage)
      index.insert(key, at: position, keyAt: key(at:))
      return true
    }
  }

  /// Removes the registration filed under `object`'s identity.
  ///
  /// The entry needs no look at its object: if that object is alive it is
  /// `object`, since two live objects never share an address; if it is dead,
  /// the entry is `object`'s own, seen from its deinitializer (where weak
  /// references to it already read `nil`), or an earlier object's at the same
  /// address, and removing it is right in both cases.
  func remove(_ object: AnyObject) {
    let key = ObjectIdentifier(object)
    mutate { garbage in
      guard let position = index.position(of: key, keyAt: key(at:)) else { return }
      index.remove(key, keyAt: key(at:))
      markRemoved(at: position, &garbage)
    }
  }

  /// Whether `object` is registered.
  func contains(_ object: AnyObject) -> Bool {
    lock.withLock {
      index.position(of: ObjectIdentifier(object), keyAt: key(at:))
        .map { referent(at: $0) === object } ?? false
    }
  }

  // MARK: Registrations that are their own handle

  /// Registers a new entry for `object` and returns its sequence number,
  /// which is the handle for removing it.
  func append(_ object: AnyObject, payload: Payload) -> UInt64 {
    mutate { garbage in
      let position = append(object, state: 0, payload: payload, &garbage)
      return buffer.withEntries { entries, _ in entries[position].sequence }
    }
  }

  /// Removes the entry with sequence number `sequence`.
  ///
  /// O(log n).
  ///
  /// - Returns: whether it was registered: `false` if it was removed before,
  ///   or dropped because its object died.
  @discardableResult
  func remove(sequence: UInt64) -> Bool {
    mutate { garbage in
      guard let position = registeredPosition(of: sequence) else { return false }
      markRemoved(at: position, &garbage)
      return true
    }
  }

  /// Removes every entry registered for an object with identity `key`.
  ///
  /// O(n).
  ///
  /// - Returns: how many were removed.
  @discardableResult
  func removeAll(key: ObjectIdentifier) -> Int {
    mutate { garbage in
      let sequences = buffer.withEntries { entries, count in
        (0..<count).filter { entries[$0].key == key && !entries[$0].isRemoved }
          .map { entries[$0].sequence }
      }
      // Each removal may compact the buffer and drop dead entries, so find
      // every entry again by its sequence, and skip those that are gone.
      var removed = 0
      for sequence in sequences {
        guard let position = registeredPosition(of: sequence) else { continue }
        markRemoved(at: position, &garbage)
        removed += 1
      }
      return removed
    }
  }

  // MARK: Mutations, with the lock held

  /// The position of the entry with `sequence`, if it is in the buffer and
  /// not removed.
  ///
  /// O(log n).
  private func registeredPosition(of sequence: UInt64) -> Int? {
    let position = buffer.position(ofFirst: sequence, below: buffer.count)
    guard position < buffer.count else { return nil }
    let isRegistered = buffer.withEntries { entries, _ in
      entries[position].sequence == sequence && !entries[position].isRemoved
    }
    return isRegistered ? position : nil
  }

  private func key(at position: Int) -> ObjectIdentifier {
    buffer.withEntries { entries, _ in entries[position].key }
  }

  private func referent(at position: Int) -> AnyObject? {
    buffer.withEntries { entries, _ in entries[position].object }
  }

  /// Marks the entry at `position` removed, then compacts a sparse buffer.
  ///
  /// Positions read before this call are stale afterwards.
  private func markRemoved(at position: Int, _ garbage: inout Garbage) {
    buffer.withEntries { entries, _ in entries[position].markRemoved() }
    tombstones += 1
    if tombstones * 2 > buffer.count {
      rebuild(reserving: 0, &garbage)
    }
  }

  /// Appends an entry, replacing a full buffer first; returns its position.
  private func append(
    _ object: AnyObject, state: UInt, payload: Payload, _ garbage: inout Garbage
  ) -> Int {
    if buffer.isFull { rebuild(reserving: 1, &garbage) }
    buffer.append(object, state: state, sequence: nextSequence, payload: payload)
    nextSequence += 1
    return buffer.count - 1
  }

  /// Replaces the buffer with one holding the entries still registered and
  /// alive, with room for half as many again plus `extra`.
  ///
  /// The strong references taken to test liveness go to `garbage`, to be
  /// released after unlocking: releasing one here could run a deinitializer
  /// that calls back into this storage.
  private func rebuild(reserving extra: Int, _ garbage: inout Garbage) {
    let old = buffer
    var kept: [Int] = []
    let firstSurvivor = garbage.survivors.count
    old.withEntries { entries, count in
      kept.reserveCapacity(count - tombstones)
      for position in 0..<count {
        guard let (object, _) = entries[position].load() else { continue }
        garbage.survivors.append(object)
        kept.append(position)
      }
    }
    let liveCount = kept.count
    let replacement = _ObserverBuffer<Payload>.make(
      capacity: Swift.max(Self.minimumCapacity, liveCount + liveCount / 2 + extra))
    old.withEntries { entries, _ in
      for (object, position) in zip(garbage.survivors[firstSurvivor...], kept) {
        replacement.append(
          object, state: entries[position].state.load(ordering: .relaxed),
          sequence: entries[position].sequence, payload: entries[position].payload)
      }
    }
    buffer = replacement
    generation.add(1, ordering: .relaxed)
    tombstones = 0
    if isKeyed {
      index = _PositionIndex(capacity: liveCount)
      for position in 0..<liveCount {
        index.insert(key(at: position), at: position, keyAt: key(at:))
      }
    }
    garbage.buffers.append(old)
  }
}

extension _ObserverStorage {
  /// The number of entry slots and index slots the storage holds: the figure
  /// that must stay proportional to the live registrations.
  var capacity: Int {
    lock.withLock { buffer.header.capacity + index.capacity }
  }

  /// Whether an entry is filed under `key`, alive or dead: how tests see that
  /// a new object was allocated at a dead observer's address.
  func hasEntry(forKey key: ObjectIdentifier) -> Bool {
    lock.withLock { index.position(of: key, keyAt: key(at:)) != nil }
  }

  /// Checks the storage's internal consistency; traps if it is broken.
  ///
  /// Tests call it after every mutation.
  func checkInvariants() {
    lock.withLock {
      precondition(buffer.count <= buffer.header.capacity, "count exceeds capacity")
      buffer.withEntries { entries, count in
        var removed = 0
        var previous: UInt64?
        for position in 0..<count {
          let sequence = entries[position].sequence
          precondition(previous.map { $0 < sequence } ?? true, "sequences out of order")
          precondition(sequence < nextSequence, "a sequence number from the future")
          previous = sequence
          if entries[position].isRemoved {
            removed += 1
          } else if isKeyed {
            let filed = index.position(of: entries[position].key, keyAt: key(at:))
            precondition(
              filed == position, "entry \(position) is filed at \(String(describing: filed))")
          }
        }
        precondition(removed == tombstones, "tombstones \(tombstones), marked entries \(removed)")
        precondition(count == 0 || tombstones * 2 <= count, "buffer left sparse")
        precondition(index.count == (isKeyed ? count - removed : 0), "index and buffer disagree")
      }
    }
  }
}
