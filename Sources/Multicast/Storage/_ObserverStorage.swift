// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// The library, bottom-up, in three layers, each in its own folder:
//
// Storage/: the registrations, in order, behind every face.
//  1. This file: what the storage is, and the one way to change its state
//     (`withLockedState`, or `mutate`, which releases what a change drops
//     after unlocking, _ObserverStorage+Garbage, then sweeps if a sweep is
//     wanted, +Sweep); +State: the state.
//  2. _ObserverEntry, _EntryStamp, _Registration: one registration's parts.
//  3. _BufferLayout, _ObserverBuffer (+Entries): where registrations
//     live; _ReaderSlots (+Broadcasts): who reads them, counted without a
//     lock, and the protocol that makes that safe.
//  4. _EntryIndex, _PositionIndex: finding an entry by its object.
//  5. _ObserverStorage+Mutations, then +Compaction: registering, removing,
//     and making room.
//  6. _ObserverStorage+Readers, +Broadcast, then +Queries: beginning and
//     ending a broadcast (and when a replaced buffer may go), reading
//     without the lock, and answering at one instant with it.
//  7. _ObserverStorage+Keyed and +Handles: the two registries' own
//     operations.
//  8. _ObserverStorage+Invariants, +Testing; _Lock; _ObserverLayout.
//
// Delivery/: everything that decides where and when a handler runs.
//  9. _Isolation: where code runs, as the concurrency runtime tells it, and
//     the key a subscription records: its destination's identity.
// 10. _DeliveryJob, _DeliveryState: one piece of queued work, and the state
//     machine of a queue, whose transitions return what to do after
//     unlocking (two of them also made without the lock, on atomic flags).
// 11. _Destination (+Delivering, +Registry): one serial queue per actor,
//     shared by every subject and face, delivered by a caller there or
//     drained on its actor; Deliveries: the public wait.
// 12. _Handler: a subscription's handler, erased to one of four shapes.
// 13. _EventCore (+Sending, +Delivering, +Current, +Once, +Notices,
//     +Derived): the closure faces' engine, its lanes (one destination per
//     isolation with subscriptions), a send's common case and general one,
//     the delivery of queued work, a first value (current or replayed)
//     queued for one new subscription, subscriptions for one value, the
//     owner's notices, and events derived from others.
// 14. _QueuedBroadcasts: a protocol broadcast queued for another actor.
//
// Faces/: the public types and their thin extensions.
// 15. MulticastDelegate (+Registration, +Broadcast, +Async, +Actors): the
//     protocol face on a keyed registry; EventSender, Event (+Once, +Values,
//     +Derived), ObservableValue (+Current, +Observation),
//     EventSubscription: the closure faces on an _EventCore.

/// The registry behind every face of the library: registrations in order, in
/// a buffer guarded by a lock, with the rules for removing and compacting.
///
/// It comes as two types over this one implementation, which differ in how
/// they find a registration (see ``_EntryIndex``): ``_KeyedRegistry``, one
/// registration per object, found by its identity (what `MulticastDelegate`
/// keeps), and ``_HandleRegistry``, registrations that are their own handles,
/// found by their sequence numbers (what the events keep). Each offers only
/// its own operations.
///
/// - A broadcast takes no lock: it counts itself in its thread's slot, notes
///   the current buffer, its count and the next sequence number, and checks
///   that no critical section ran meanwhile (see ``_ReaderSlots``); then it
///   calls observers, and leaves by taking its count back. Two threads
///   broadcasting at once write no word in common. Entries appended meanwhile
///   lie above its count; entries removed meanwhile are flagged in their
///   stamps, which it reads atomically, so it skips them when their turn
///   comes.
/// - Removal flags an entry and leaves it in place (a tombstone), unless it is
///   the last and no broadcast reads the buffer: then it goes at once.
///   Registration appends. When more than half of a buffer is tombstones, it
///   is compacted; when it is full, its entries go to a buffer with twice the
///   room; when a compaction would leave it more than three quarters empty, to
///   one with twice the room its entries take.
///   Each costs O(n) and follows at least n/4 registrations or removals, so
///   all are amortized O(1).
/// - Observers that die unremoved are dropped by sweeps, which remove every
///   entry whose object is gone. One is due once there have been twice as
///   many registrations since the last sweep as there were live observers
///   then; the mutation that fills the buffer with one due, or that finds one
///   due as it compacts or removes the last entry, sweeps once it has
///   unlocked, so that the next registration finds room. (A handle
///   registry's owner, see `setOwner`, holds its own registrations with no
///   weak reference: they are alive whenever the storage is used, and never
///   loaded.) The buffer so holds about three times the observers alive at
///   the last sweep at most, however many die, while loading objects (two
///   atomic operations on each one's side table) stays rarer than
///   registering them. A sweep loads each object as a broadcast does,
///   without the lock, and lets it go at once, then flags the dead removed
///   in one critical section: it holds no observer beyond its load, so an
///   observer released on another thread meanwhile is not kept alive (and
///   called by its actor) until a critical section ends; see ``sweep()``.
/// - Entries move (bitwise, with no reference counting) only when no broadcast
///   can read the buffer. If one may, the storage copies the entries to a new
///   buffer instead, flags the old stamps moved and keeps the old buffer until
///   the broadcasts that could read it have left (an epoch later, see
///   ``_ReaderSlots``). A broadcast that meets a moved stamp goes on in the
///   new buffer, at the first entry it has not reached, so it still sees
///   every later removal.
/// - Nothing that can run user code (an observer's or a payload's
///   deinitializer) is released with the lock held: mutations collect what
///   they drop as ``Garbage`` and release it after unlocking.
///
/// The storage is a noncopyable value that its owner keeps: its state and its
/// lock live in one allocation of their own, where they never move.
@usableFromInline
struct _ObserverStorage<Payload, Index: _EntryIndex>: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: `state` and the buffers it points to are read and
  // written only with `lock` held, with exceptions that are safe. A broadcast
  // reads, without the lock, the words _ReaderSlots publishes (atomically),
  // and entries of a buffer it counts itself a reader of, below a count that
  // one critical section published: those entries are written only before
  // that section ended, or moved when no counted broadcast can read them. It
  // reads their stamps atomically, which the lock holder writes atomically,
  // and it leaves with an atomic decrement (the argument is in
  // _ReaderSlots). Weak loads are made thread-safe by the runtime. The
  // stress, reader and linearizability tests exercise this from many
  // threads, under ThreadSanitizer in CI.
  @usableFromInline
  let lock: _Lock
  @usableFromInline
  let state: UnsafeMutablePointer<State>
  /// The broadcasts under way, and the words they begin with: the state's
  /// view, kept here too, so that a broadcast that begins without the lock
  /// reads no part of the state.
  @usableFromInline
  let readers: _ReaderSlots

  @usableFromInline
  typealias Buffer = _ObserverBuffer<Payload, Index>

  /// Creates an empty storage.
  init() {
    // One allocation: the state, the lock, the readers' control words, the
    // first, empty buffer, and last the readers' first slot, on a line of
    // its own.
    let lockOffset = _BufferLayout.aligned(MemoryLayout<State>.stride, to: _Lock.alignment)
    let controlOffset = _BufferLayout.aligned(
      lockOffset + _Lock.byteCount, to: MemoryLayout<UInt64>.alignment)
    let bufferOffset = _BufferLayout.aligned(
      controlOffset + _ReaderSlots.controlBytes, to: Buffer.alignment)
    let firstSlotOffset = _BufferLayout.aligned(
      bufferOffset + Buffer.byteCount(capacity: 0), to: 16)
    let memory = UnsafeMutableRawPointer.allocate(
      byteCount: firstSlotOffset + _ReaderSlots.firstSlotBytes,
      alignment: Swift.max(MemoryLayout<State>.alignment, _Lock.alignment, Buffer.alignment, 16))
    let empty = Buffer.initialize(at: memory + bufferOffset, capacity: 0)
    let readers = _ReaderSlots(
      control: memory + controlOffset, firstSlot: memory + firstSlotOffset, buffer: empty.base)
    state = memory.bindMemory(to: State.self, capacity: 1)
    state.initialize(to: State(buffer: empty, readers: readers))
    self.readers = readers
    lock = _Lock(initializing: memory + lockOffset)
  }

  deinit {
    // No broadcast can be running: each borrows the storage's owner.
    let state = self.state.move()
    state.buffer.deallocate()
    for buffer in state.retiredBeforeFlip { buffer.deallocate() }
    for buffer in state.retiredSinceFlip { buffer.deallocate() }
    state.readers.destroy()
    lock.destroy()
    self.state.deallocate()
  }

  /// Runs `body` on the state with the lock held: the one way the state
  /// changes.
  ///
  /// A section that may change the state marks the readers' version busy
  /// while it runs (see _ReaderSlots), so that no broadcast begins without
  /// the lock meanwhile. Pass `changing: false` for one that changes nothing
  /// such a broadcast reads (the buffer, its entries' places, its count, the
  /// next sequence number, the epoch; what else the lock guards, such as an
  /// event's lanes or the buffers waiting to be freed, it may change): it
  /// pays nothing to keep those broadcasts out. Beginning a broadcast there
  /// (``State/beginBroadcast()``) changes only its counter in the readers'
  /// slots.
  ///
  /// Built with `MULTICAST_INTERNAL_CHECKS` defined, the state checks its
  /// invariants after every change, broadcasts' bookkeeping included.
  @inlinable
  func withLockedState<Result: ~Copyable>(
    changing: Bool = true, _ body: (inout State) -> Result
  ) -> Result {
    lock.lock()
    #if MULTICAST_INTERNAL_CHECKS
    state.pointee.section.isUnreadProven = false
    #endif
    guard changing else {
      let result = body(&state.pointee)
      #if MULTICAST_INTERNAL_CHECKS
      state.pointee.checkPublished()
      #endif
      lock.unlock()
      return result
    }
    let version = readers.beginWrite()
    let result = body(&state.pointee)
    #if MULTICAST_INTERNAL_CHECKS
    state.pointee.checkInvariants()
    #endif
    let buffer = state.pointee.buffer
    readers.endWrite(
      version, buffer: buffer.base, count: buffer.count, epoch: state.pointee.epoch,
      nextSequence: state.pointee.nextSequence)
    #if MULTICAST_INTERNAL_CHECKS
    state.pointee.checkPublished()
    #endif
    lock.unlock()
    return result
  }

  /// Runs `body` on the state with the lock held, then releases what it
  /// dropped, then sweeps if a sweep is wanted: a step found one due, or
  /// the buffer is full with one due (see ``sweep()``).
  func mutate<Result>(_ body: (inout State, inout Garbage) -> Result) -> Result {
    let result = mutateWithoutSweeping(body)
    sweepIfWanted()
    return result
  }

  /// Runs `body` as ``mutate(_:)`` does, with no sweep after.
  func mutateWithoutSweeping<Result>(
    _ body: (inout State, inout Garbage) -> Result
  ) -> Result {
    var garbage = Garbage()
    let result = withLockedState { state in body(&state, &garbage) }
    _ = consume garbage
    return result
  }

  /// Runs `body` on the state with the lock held, for reading.
  func read<Result>(_ body: (borrowing State) -> Result) -> Result {
    withLockedState(changing: false) { state in body(state) }
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

/// Registrations keyed by their object's identity, at most one per object.
///
/// What `MulticastDelegate` keeps. See ``_ObserverStorage``.
@usableFromInline
typealias _KeyedRegistry<Payload> = _ObserverStorage<Payload, _PositionIndex>

/// Registrations that are their own handles, any number per object.
///
/// What the events keep. See ``_ObserverStorage``.
@usableFromInline
typealias _HandleRegistry<Payload> = _ObserverStorage<Payload, _Unindexed>
