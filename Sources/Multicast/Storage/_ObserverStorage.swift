// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// The library, bottom-up, in three layers, each in its own folder:
//
// Storage/ (here): the registrations behind every face, read by broadcasts
//   without a lock. Its README.md states the protocol, the invariants the
//   code cites (I1 to I10), the terms, and the order to read the files in.
// Delivery/: where and when a handler runs. Its README.md states the
//   protocol, the invariants the code cites (D1 to D12), the terms, and the
//   order to read the files in.
// Faces/: the public types and their thin extensions: MulticastDelegate on a
//   keyed registry; EventSender, Event, ObservableValue, EventSubscription
//   on an _EventCore.

/// The registry behind every face of the library: registrations in order, in
/// a buffer guarded by a lock, which broadcasts read without it.
///
/// It comes as two types over this one implementation, which differ only in
/// how they find a registration (``_EntryIndex``): ``_KeyedRegistry`` and
/// ``_HandleRegistry``. Each offers only its own operations.
///
/// A broadcast counts itself in a reader slot and reads one buffer, which no
/// change moves or frees while it is counted. Removal leaves tombstones, which
/// compaction drops; a sweep drops observers that died unremoved; a replaced
/// buffer that a broadcast may read is retired until its readers leave. The
/// protocol, its costs and its invariants: README.md in this folder.
///
/// The storage is a noncopyable value that its owner keeps: its state and its
/// lock live in one allocation of their own, where they never move. What the
/// owner guards with the same lock, `Guarded`, lives there too, in
/// ``State/guarded``: like the registrations, it is reached only in a
/// section.
@usableFromInline
struct _ObserverStorage<Payload, Index: _EntryIndex, Guarded>: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: the state is read and written with `lock` held; a
  // broadcast reads without it only what I1, I4 and I7 keep valid.
  @usableFromInline
  let lock: _Lock
  @usableFromInline
  let state: UnsafeMutablePointer<State>
  /// The control words and reader slots, also here so that a broadcast
  /// begun without the lock reads no part of the state (but for debug
  /// builds' test hooks, set before any broadcast).
  @usableFromInline
  let readers: _ReaderSlots

  @usableFromInline
  typealias Buffer = _ObserverBuffer<Payload, Index>

  /// Creates an empty storage, beside which its owner keeps `guarded`, told
  /// of each removal by `onRemoval`.
  init(
    guarding guarded: Guarded, onRemoval: ((inout Guarded, UnsafePointer<Payload>) -> Void)? = nil
  ) {
    // One allocation: the state, the lock, the control words, the first,
    // empty buffer, and last the first reader slot, on a line of its own.
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
    state.initialize(
      to: State(buffer: empty, readers: readers, guarded: guarded, onRemoval: onRemoval))
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
  /// By default a writing section: it keeps the version busy while it runs
  /// and publishes what broadcasts begin with as it ends (I1, I2). Pass
  /// `changing: false` for a section that changes none of that (the buffer,
  /// its entries' places, its count, the next sequence number, the epoch).
  @inlinable @inline(__always)
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

  /// Runs `body` in a writing section, releases what it dropped after
  /// unlocking, then sweeps if a sweep is wanted.
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
typealias _KeyedRegistry<Payload> = _ObserverStorage<Payload, _PositionIndex, Void>

/// Registrations that are their own handles, any number per object.
///
/// What the events keep. See ``_ObserverStorage``.
@usableFromInline
typealias _HandleRegistry<Payload, Guarded> = _ObserverStorage<Payload, _NoIndex, Guarded>

extension _ObserverStorage where Guarded == Void {
  /// Creates an empty storage whose owner guards nothing else with its lock.
  init() { self.init(guarding: ()) }
}
