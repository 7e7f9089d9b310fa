/// The registry behind every face of the library: cells in registration order,
/// an optional identity index, a lock, and the rules for pruning.
///
/// - A broadcast takes the lock only to read the current buffer and its count,
///   then calls observers with no lock held. Cells appended later lie above that
///   count; cells removed later are marked on the shared cell, so the broadcast
///   skips them when their turn comes.
/// - Removal marks a cell and leaves it in place (a tombstone); registration
///   appends. When a buffer is full, or more than half of it is tombstones, it is
///   replaced by a new one holding only the cells still registered and alive,
///   sized at twice their number. Each replacement costs O(n) and follows at
///   least n/2 registrations or removals, so both are amortized O(1), and the
///   storage stays proportional to the live observers however many die.
/// - Nothing that can run user code (an observer's or a payload's
///   deinitializer) is released with the lock held: mutations return what they
///   drop, and the caller releases it after unlocking.
@usableFromInline
final class _ObserverStorage<Payload>: @unchecked Sendable {
  // @unchecked Sendable: every stored property below is read and written only
  // with `lock` held. Outside the lock a broadcast reads only the cells of a
  // buffer below the count it saw under the lock; those slots are never written
  // again, cells' removal flags are atomic, and weak loads are made thread-safe
  // by the runtime. MulticastDelegateStressTests exercise this from many tasks.
  private let lock = _Lock()
  private var buffer: _ObserverBuffer<Payload>
  /// Identity-keyed registrations (those of `MulticastDelegate`); empty for
  /// faces whose registrations are their own tokens.
  private var index: [ObjectIdentifier: _ObserverCell<Payload>] = [:]
  /// The number of cells in `buffer` that are marked removed.
  private var tombstones = 0

  private static var minimumCapacity: Int { 4 }

  init() {
    buffer = .make(capacity: 0)
  }

  /// What a mutation dropped, to be released after the lock is released.
  struct Garbage {
    fileprivate var compacted: _ObserverBuffer<Payload>?
    fileprivate var grown: _ObserverBuffer<Payload>?
    fileprivate var survivors: [AnyObject] = []
  }

  // MARK: Broadcasting

  /// The current buffer and the number of cells a broadcast starting now calls.
  @usableFromInline
  func snapshot() -> (buffer: _ObserverBuffer<Payload>, count: Int) {
    lock.withLock { (buffer, buffer.header.count) }
  }

  /// Calls `body` with each live registration that existed when the call began
  /// and is not removed before its turn, in registration order, with no lock held.
  @inlinable
  func forEach(_ body: (_ object: AnyObject, _ word: UInt, _ payload: Payload) throws -> Void)
    rethrows
  {
    let (buffer, count) = snapshot()
    try buffer.withUnsafeMutablePointerToElements { cells in
      // The buffer keeps its cells alive for the whole loop, so each cell is
      // used without the retain and release that copying its reference costs.
      try cells.withMemoryRebound(to: Unmanaged<_ObserverCell<Payload>>.self, capacity: count) {
        cells in
        for position in 0..<count {
          try cells[position]._withUnsafeGuaranteedRef { cell in
            guard let (object, word) = cell.load() else { return }
            try body(object, word, cell.payload)
          }
        }
      }
    }
  }

  /// The number of live registrations.
  ///
  /// O(n).
  var liveCount: Int {
    let (buffer, count) = snapshot()
    return buffer.withCells(prefix: count) { cells in
      cells.reduce(0) { $0 + ($1.load() == nil ? 0 : 1) }
    }
  }

  /// Whether there is no live registration.
  ///
  /// O(n) when only dead ones are left.
  var isEmpty: Bool {
    let (buffer, count) = snapshot()
    return buffer.withCells(prefix: count) { cells in
      !cells.contains { $0.load() != nil }
    }
  }

  // MARK: Registrations keyed by identity

  /// Registers `object` under `key` unless it is already registered.
  ///
  /// A cell under the same key whose object is gone belonged to a dead object
  /// at the same address: it is removed and the new object goes to the end.
  /// - Returns: `true` if the object was not registered before.
  @discardableResult
  func insert(_ object: AnyObject, key: ObjectIdentifier, word: UInt, payload: Payload) -> Bool {
    let (inserted, garbage) = lock.withLock { () -> (Bool, Garbage) in
      var garbage = Garbage()
      if let existing = index[key] {
        // The caller holds `object`, so this load cannot release the last reference.
        if existing.referent === object { return (false, garbage) }
        garbage = remove(existing) ?? garbage
      }
      let cell = _ObserverCell(object: object, word: word, payload: payload)
      index[key] = cell
      garbage.grown = append(cell, dropping: &garbage.survivors)
      return (true, garbage)
    }
    _ = consume garbage
    return inserted
  }

  /// Removes the registration under `key` if it is `object`'s, or a dead one.
  ///
  /// A dead cell under `key` is either `object`'s own, seen from its
  /// deinitializer (where weak references to it already read `nil`), or an
  /// earlier object's at the same address: removing it is right in both cases.
  func remove(_ object: AnyObject, key: ObjectIdentifier) {
    let garbage = lock.withLock { () -> Garbage? in
      guard let cell = index[key] else { return nil }
      let referent = cell.referent
      guard referent == nil || referent === object else { return nil }
      index[key] = nil
      return remove(cell)
    }
    _ = consume garbage
  }

  /// Whether `object` is registered under `key`.
  func contains(_ object: AnyObject, key: ObjectIdentifier) -> Bool {
    lock.withLock { index[key]?.referent === object }
  }

  // MARK: Registrations that are their own key

  /// Registers a new cell for `object` and returns it; the cell is the key.
  func append(_ object: AnyObject, payload: Payload) -> _ObserverCell<Payload> {
    let cell = _ObserverCell(object: object, word: 0, payload: payload)
    let garbage = lock.withLock { () -> Garbage in
      var garbage = Garbage()
      garbage.grown = append(cell, dropping: &garbage.survivors)
      return garbage
    }
    _ = consume garbage
    return cell
  }

  /// Removes `cell`.
  ///
  /// Removing a cell twice, or one that is gone, does nothing.
  /// - Returns: whether the cell was registered before.
  @discardableResult
  func remove(_ cell: _ObserverCell<Payload>) -> Bool {
    let (removed, garbage) = lock.withLock { () -> (Bool, Garbage?) in
      guard !cell.isRemoved else { return (false, nil) }
      return (true, remove(cell))
    }
    _ = consume garbage
    return removed
  }

  /// Removes every cell for which `shouldRemove` is true.
  ///
  /// O(n).
  /// - Returns: how many cells were removed.
  @discardableResult
  func removeAll(where shouldRemove: (_ObserverCell<Payload>) -> Bool) -> Int {
    let (removed, garbage) = lock.withLock { () -> (Int, Garbage?) in
      var removed = 0
      buffer.withCells { cells in
        for cell in cells where !cell.isRemoved && shouldRemove(cell) {
          markRemoved(cell)
          removed += 1
        }
      }
      return (removed, compactIfSparse())
    }
    _ = consume garbage
    return removed
  }

  // MARK: Mutations, with the lock held

  private func markRemoved(_ cell: _ObserverCell<Payload>) {
    cell.markRemoved()
    tombstones += 1
  }

  private func remove(_ cell: _ObserverCell<Payload>) -> Garbage? {
    markRemoved(cell)
    return compactIfSparse()
  }

  /// Replaces the buffer when more than half of it is tombstones.
  private func compactIfSparse() -> Garbage? {
    guard tombstones * 2 > buffer.header.count else { return nil }
    var garbage = Garbage()
    garbage.compacted = rebuild(reserving: 0, survivors: &garbage.survivors)
    return garbage
  }

  /// Appends `cell`, replacing a full buffer first; returns the replaced buffer.
  private func append(
    _ cell: _ObserverCell<Payload>, dropping survivors: inout [AnyObject]
  ) -> _ObserverBuffer<Payload>? {
    let old = buffer.isFull ? rebuild(reserving: 1, survivors: &survivors) : nil
    buffer.append(cell)
    return old
  }

  /// Moves the cells still registered and alive into a new buffer with room for
  /// twice their number plus `extra`, and returns the old buffer.
  ///
  /// Dead cells are marked removed so that the index can drop them. The strong
  /// references taken to test liveness go to `survivors`, released by the caller
  /// after unlocking, since releasing one here could run a deinitializer that
  /// calls back into this storage.
  private func rebuild(
    reserving extra: Int, survivors: inout [AnyObject]
  ) -> _ObserverBuffer<Payload> {
    let old = buffer
    var kept: [_ObserverCell<Payload>] = []
    old.withCells { cells in
      kept.reserveCapacity(cells.count - tombstones)
      survivors.reserveCapacity(cells.count - tombstones)
      for cell in cells where !cell.isRemoved {
        if let (object, _) = cell.load() {
          survivors.append(object)
          kept.append(cell)
        } else {
          cell.markRemoved()
        }
      }
    }
    let capacity = Swift.max(Self.minimumCapacity, 2 * kept.count + extra)
    buffer = .make(capacity: capacity)
    for cell in kept { buffer.append(cell) }
    tombstones = 0
    if !index.isEmpty {
      index = index.filter { !$0.value.isRemoved }
    }
    return old
  }
}

extension _ObserverStorage {
  /// The number of cell slots and index entries the storage has room for: the
  /// figure that must stay proportional to the live registrations.
  var capacity: Int {
    lock.withLock { buffer.header.capacity + index.capacity }
  }

  /// Checks the storage's internal consistency; traps if it is broken.
  ///
  /// Tests call it after every mutation.
  ///
  /// - Parameter isKeyed: whether registrations go through the identity index.
  func checkInvariants(isKeyed: Bool) {
    lock.withLock {
      let header = buffer.header
      precondition(header.count <= header.capacity, "count exceeds capacity")
      buffer.withCells { cells in
        let removed = cells.count { $0.isRemoved }
        precondition(removed == tombstones, "tombstones \(tombstones), marked cells \(removed)")
        precondition(cells.isEmpty || tombstones * 2 <= cells.count, "buffer left sparse")
        let registered = Set(cells.lazy.filter { !$0.isRemoved }.map(ObjectIdentifier.init))
        precondition(registered.count == cells.count - removed, "a cell is listed twice")
        let indexed = Set(index.values.map(ObjectIdentifier.init))
        if isKeyed {
          precondition(indexed == registered, "index and buffer disagree")
          for (key, cell) in index {
            if let object = cell.referent {
              precondition(ObjectIdentifier(object) == key, "a cell is filed under another key")
            }
          }
        } else {
          precondition(index.isEmpty, "an unkeyed storage has index entries")
        }
      }
    }
  }
}
