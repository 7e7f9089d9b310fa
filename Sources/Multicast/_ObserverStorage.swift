// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// The registry behind every face of the library: registrations in order, in
/// a buffer guarded by a lock, with the rules for removing and compacting.
///
/// - A broadcast takes the lock only to note the current buffer, its count and
///   the next sequence number, and to count itself among the buffer's
///   readers; then it calls observers with no lock held, and takes the lock
///   once more at the end to leave. Entries appended meanwhile lie above its
///   count; entries removed meanwhile are flagged in their words, which it
///   reads atomically, so it skips them when their turn comes.
/// - Removal flags an entry and leaves it in place (a tombstone); registration
///   appends. When more than half of a buffer is tombstones, it is compacted;
///   when it is full, its entries go to a buffer with half as much room again.
///   Each costs O(n) and follows at least n/3 registrations or removals, so
///   both are amortized O(1).
/// - Observers that die unremoved are dropped by sweeps: replacements that
///   load every entry's object and keep only those alive. A replacement or a
///   compaction sweeps once there have been as many registrations since the
///   last sweep as there were live observers then. The buffer so holds at most
///   twice the observers alive at the last sweep, however many die, while
///   loading objects (two atomic operations on each one's side table) stays
///   rarer than registering them.
/// - Entries move (by a bitwise move, with no reference counting) only when no
///   broadcast reads the buffer. If one does, the storage copies the entries to
///   a new buffer instead, flags the old words as moved and keeps the old
///   buffer until its last reader leaves. A broadcast that meets a moved word
///   goes on in the new buffer, at the first entry it has not reached, so it
///   still sees every later removal.
/// - Nothing that can run user code (an observer's or a payload's
///   deinitializer) is released with the lock held: mutations collect what
///   they drop as ``Garbage`` and release it after unlocking.
///
/// The storage is a noncopyable value that its owner keeps: its state and its
/// lock live in one allocation of their own, where they never move.
@usableFromInline
struct _ObserverStorage<Payload>: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: `state` and the buffers it points to are read and
  // written only with `lock` held, with two exceptions that are safe. A
  // broadcast reads, without the lock, entries of a buffer it counts itself a
  // reader of, below a count it read under the lock: those entries are written
  // only before that count was published, or moved when the buffer has no
  // reader. And it reads their words atomically, which the lock holder writes
  // atomically. Weak loads are made thread-safe by the runtime. The stress
  // tests in MulticastDelegateConcurrencyTests and EventTests exercise this
  // from many tasks, under ThreadSanitizer in CI.
  @usableFromInline
  let lock: _Lock
  @usableFromInline
  let state: UnsafeMutablePointer<State>

  @usableFromInline
  typealias Buffer = _ObserverBuffer<Payload>

  /// What the lock guards.
  @usableFromInline
  struct State {
    /// The buffer that registrations go to and broadcasts start from.
    @usableFromInline
    var buffer: Buffer
    /// Buffers replaced while broadcasts were reading them, kept until the
    /// last of those broadcasts leaves.
    var retired: [Buffer] = []
    /// The sequence number of the next registration.
    @usableFromInline
    var nextSequence: UInt64 = 0
    /// The number of entries in `buffer` flagged removed.
    var tombstones = 0
    /// How many entries were alive at the last sweep: the last time a
    /// replacement looked at every object to drop the dead.
    var sweptLive = 0
    /// How many registrations were made since the last sweep.
    var registrationsSinceSweep = 0

    init(buffer: Buffer) { self.buffer = buffer }
  }

  /// What a mutation drops, released after the lock is: anything whose
  /// deinitializer may run user code and call back into the storage.
  struct Garbage: ~Copyable {
    /// Strong references taken while telling live entries from dead ones.
    var objects: [AnyObject] = []
    /// Payloads dropped that are not plain data.
    var payloads: [Payload] = []
    /// Buffers to free, with the entries left in them.
    var buffers: [Buffer] = []

    deinit {
      for buffer in buffers { buffer.deallocate() }
    }
  }

  /// Creates an empty storage.
  ///
  /// - Parameter keyed: Whether registrations are keyed by their object's
  ///   identity, one per object (`MulticastDelegate`), or are their own
  ///   handles (the events), so that one object may hold many.
  init(keyed: Bool) {
    // One allocation: the state, the lock, and the first, empty buffer.
    func aligned(_ offset: Int, _ alignment: Int) -> Int {
      (offset + alignment - 1) & ~(alignment - 1)
    }
    let lockOffset = aligned(MemoryLayout<State>.stride, _Lock.alignment)
    let bufferOffset = aligned(lockOffset + _Lock.byteCount, Buffer.alignment)
    let memory = UnsafeMutableRawPointer.allocate(
      byteCount: bufferOffset + Buffer.byteCount(capacity: 0, indexed: keyed),
      alignment: Swift.max(MemoryLayout<State>.alignment, _Lock.alignment, Buffer.alignment))
    let empty = Buffer.initialize(at: memory + bufferOffset, capacity: 0, indexed: keyed)
    state = memory.bindMemory(to: State.self, capacity: 1)
    state.initialize(to: State(buffer: empty))
    lock = _Lock(initializing: memory + lockOffset)
  }

  deinit {
    // No broadcast can be running: each borrows the storage's owner.
    let state = self.state.move()
    state.buffer.deallocate()
    for buffer in state.retired { buffer.deallocate() }
    lock.destroy()
    self.state.deallocate()
  }

  /// Runs `body` on the state with the lock held, then releases what it
  /// dropped.
  func mutate<Result>(_ body: (inout State, inout Garbage) -> Result) -> Result {
    var garbage = Garbage()
    lock.lock()
    let result = body(&state.pointee, &garbage)
    #if MULTICAST_INTERNAL_CHECKS
    state.pointee.checkInvariants()
    #endif
    lock.unlock()
    _ = consume garbage
    return result
  }

  /// Runs `body` on the state with the lock held, for reading.
  func read<Result>(_ body: (borrowing State) -> Result) -> Result {
    lock.withLock { body(state.pointee) }
  }

  /// Removes every registration.
  ///
  /// - Returns: Whether any was registered.
  /// - Complexity: O(n), where n is the number of registrations.
  @discardableResult
  func removeAll() -> Bool {
    mutate { state, garbage in state.removeAll(&garbage) }
  }
}

extension _ObserverStorage.State {
  private static var minimumCapacity: Int { 4 }

  /// Appends a registration, making room first if the buffer is full.
  ///
  /// - Returns: The new entry's sequence number.
  @discardableResult
  mutating func register(
    _ object: AnyObject, payload: Payload, _ garbage: inout _ObserverStorage.Garbage
  ) -> UInt64 {
    if buffer.isFull {
      replaceBuffer(reserving: 1, sweeping: isSweepDue, &garbage)
    }
    let sequence = nextSequence
    buffer.append(
      _ObserverEntry(object: object), payload: payload, word: _EntryWord(sequence: sequence))
    nextSequence += 1
    registrationsSinceSweep += 1
    return sequence
  }

  /// Removes every registration.
  ///
  /// - Returns: Whether any was registered.
  mutating func removeAll(_ garbage: inout _ObserverStorage.Garbage) -> Bool {
    var removed = false
    for position in 0..<buffer.count where !_EntryWord(rawValue: buffer.words[position]).isRemoved {
      markRemoved(at: position)
      removed = true
    }
    compactIfSparse(&garbage)
    return removed
  }

  /// Whether the next replacement or compaction should sweep: once there have
  /// been as many registrations since the last sweep as there were live
  /// observers then.
  ///
  /// Between sweeps, then, the buffer holds at most the observers alive at
  /// the last sweep and as many again, whichever of them died, and each sweep,
  /// O(n), follows at least n/3 registrations.
  private var isSweepDue: Bool {
    registrationsSinceSweep >= Swift.max(sweptLive, Self.minimumCapacity)
  }

  /// Flags the entry at `position` removed and takes it out of the index.
  ///
  /// Broadcasts under way see the flag and skip the entry. Call
  /// ``compactIfSparse(_:)`` once the mutation's removals are done.
  mutating func markRemoved(at position: Int) {
    let word = _EntryWord(rawValue: buffer.words[position])
    precondition(!word.isRemoved, "removing a removed entry")
    buffer.setWord(word.adding(_EntryWord.removedFlag), at: position)
    buffer.index?.remove(buffer.entries[position].key, in: buffer.entries)
    tombstones += 1
  }

  /// Drops the tombstones once they are more than half of the buffer.
  ///
  /// Positions read before this call are stale afterwards.
  mutating func compactIfSparse(_ garbage: inout _ObserverStorage.Garbage) {
    guard tombstones * 2 > buffer.count else { return }
    let registered = buffer.count - tombstones
    let isMostlyRoom =
      registered * 4 < buffer.capacity && buffer.capacity > 2 * Self.minimumCapacity
    if buffer.readers == 0 && !isMostlyRoom && !isSweepDue {
      compactInPlace(&garbage)
    } else {
      // A broadcast reads this buffer, it is mostly empty room, or dead
      // observers may have piled up: replace it.
      replaceBuffer(reserving: 0, sweeping: isSweepDue, &garbage)
    }
  }

  /// Slides the registered entries down over the tombstones.
  ///
  /// Only when no broadcast reads the buffer: entries move.
  private mutating func compactInPlace(_ garbage: inout _ObserverStorage.Garbage) {
    let words = buffer.words
    var kept = 0
    for position in 0..<buffer.count {
      if _EntryWord(rawValue: words[position]).isRemoved {
        Self.drop(position, of: buffer, &garbage)
      } else {
        if kept != position { buffer.move(position, to: kept) }
        kept += 1
      }
    }
    buffer.count = kept
    tombstones = 0
    if let index = buffer.index {
      index.removeAll()
      for position in 0..<kept { index.insert(buffer.entries[position].key, at: position) }
    }
  }

  /// Replaces the buffer with one holding the registered entries, with room
  /// for half as many again plus `extra`.
  ///
  /// A sweep keeps only the entries whose objects are alive. The strong
  /// references it takes to tell go to `garbage`, to be released after
  /// unlocking: releasing one here could run a deinitializer that calls back
  /// into this storage.
  ///
  /// When no broadcast reads the old buffer, the entries move, with no
  /// reference counting. Otherwise they are copied, the old words are flagged
  /// moved, and the old buffer is kept until its last reader leaves.
  mutating func replaceBuffer(
    reserving extra: Int, sweeping: Bool, _ garbage: inout _ObserverStorage.Garbage
  ) {
    let old = buffer
    let words = old.words
    // Which entries stay: the registered ones, or, in a sweep, those of them
    // whose objects are alive.
    var alive: [Int] = []
    var staying = old.count - tombstones
    if sweeping {
      for position in 0..<old.count where !_EntryWord(rawValue: words[position]).isRemoved {
        guard let object = old.entries[position].object else { continue }
        garbage.objects.append(consume object)
        alive.append(position)
      }
      staying = alive.count
      sweptLive = staying
      registrationsSinceSweep = 0
    }
    let replacement = _ObserverBuffer<Payload>.allocate(
      capacity: Swift.max(Self.minimumCapacity, staying + staying / 2 + extra),
      indexed: old.index != nil)
    var nextAlive = 0
    for position in 0..<old.count {
      var stays = !_EntryWord(rawValue: words[position]).isRemoved
      if sweeping {
        stays = nextAlive < alive.count && alive[nextAlive] == position
        if stays { nextAlive += 1 }
      }
      if old.readers == 0 {
        if stays {
          replacement.appendMoving(position, of: old)
        } else {
          Self.drop(position, of: old, &garbage)
        }
      } else {
        if stays {
          replacement.append(
            old.entries[position], payload: old.payloads[position],
            word: _EntryWord(rawValue: words[position]))
        }
        old.setWord(
          _EntryWord(rawValue: words[position]).adding(_EntryWord.movedFlag), at: position)
      }
    }
    if old.readers == 0 {
      old.count = 0
      old.deallocate()
    } else {
      retired.append(old)
    }
    buffer = replacement
    tombstones = 0
  }

  /// Ends the registration at `position` of `buffer`.
  ///
  /// Its payload, unless it is plain data, is released after the lock is: a
  /// handler's captures may run user code when they go.
  private static func drop(
    _ position: Int, of buffer: _ObserverBuffer<Payload>,
    _ garbage: inout _ObserverStorage.Garbage
  ) {
    // Destroying a weak reference runs no user code.
    (buffer.entries + position).deinitialize(count: 1)
    if _isPOD(Payload.self) {
      (buffer.payloads + position).deinitialize(count: 1)
    } else {
      garbage.payloads.append((buffer.payloads + position).move())
    }
  }
}
