// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// The library in three layers, each a folder: Storage/ (here), the registrations behind every
// face, and Delivery/, where and when a handler runs, each with a README.md of its protocol,
// invariants and terms; Faces/, the public types: MulticastDelegate on a keyed registry;
// EventSender, Event, ObservableValue and EventSubscription on an _EventCore.

/// The registry behind every face of the library (README.md in this folder).
@usableFromInline
struct _ObserverStorage<Payload, Index: _EntryIndex, Guarded: _Guarded>: ~Copyable,
  @unchecked Sendable
{
  // @unchecked Sendable: the state is read and written with `lock` held; a
  // broadcast reads without it only what I1, I4 and I7 keep valid.
  @usableFromInline
  let lock: _Lock
  @usableFromInline
  let state: UnsafeMutablePointer<State>
  /// Also here, so that a broadcast begun without the lock reads no `State` (debug hooks aside).
  @usableFromInline
  let readers: _ReaderSlots

  @usableFromInline
  typealias Buffer = _ObserverBuffer<Payload, Index>

  /// Creates an empty storage guarding `guarded`, which it tells of each removal.
  init(guarding guarded: Guarded) {
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
      to: State(buffer: empty, readers: readers, guarded: guarded))
    self.readers = readers
    lock = _Lock(initializing: memory + lockOffset)
  }

  deinit {
    // No broadcast can be running: each borrows the storage's host.
    let state = self.state.move()
    state.buffer.deallocate()
    for buffer in state.retiredBeforeFlip { buffer.deallocate() }
    for buffer in state.retiredSinceFlip { buffer.deallocate() }
    state.readers.destroy()
    lock.destroy()
    self.state.deallocate()
  }

  /// Runs `body` with the lock held in a writing section (I1, I2): readers
  /// see its changes to the registrations.
  @inlinable @inline(__always)
  func withWritingSection<Result: ~Copyable>(_ body: (inout State) -> Result) -> Result {
    lock.lock()
    state.pointee.forgetUnreadProof()
    let version = readers.beginWrite()
    let result = body(&state.pointee)
    let buffer = state.pointee.buffer
    readers.endWrite(
      version, buffer: buffer.base, count: buffer.count, epoch: state.pointee.epoch,
      nextSequence: state.pointee.nextSequence)
    state.pointee.checkAfterSection(writing: true)
    lock.unlock()
    return result
  }

  /// Runs `body` with the lock held in a reading section: it may change
  /// what the lock guards beside the registrations, never a registration.
  @inlinable @inline(__always)
  func withReadingSection<Result: ~Copyable>(_ body: (inout State) -> Result) -> Result {
    lock.lock()
    state.pointee.forgetUnreadProof()
    let result = body(&state.pointee)
    state.pointee.checkAfterSection(writing: false)
    lock.unlock()
    return result
  }

  /// Runs `body` in a writing section; releases its garbage unlocked, then sweeps if wanted.
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
    let result = withWritingSection { state in body(&state, &garbage) }
    _ = consume garbage
    return result
  }

  /// Runs `body` on the state with the lock held, for reading.
  func read<Result>(_ body: (borrowing State) -> Result) -> Result {
    withReadingSection { state in body(state) }
  }

  /// Removes every registration, and returns whether any was registered.
  @discardableResult
  func removeAll() -> Bool {
    mutate { state, garbage in state.removeAll(&garbage) }
  }
}

/// Registrations keyed by their object's identity, at most one per object.
@usableFromInline
typealias _KeyedRegistry<Payload> = _ObserverStorage<Payload, _PositionIndex, _NothingGuarded>

/// Registrations that are their own handles, any number per object.
@usableFromInline
typealias _HandleRegistry<Payload, Guarded: _Guarded> = _ObserverStorage<Payload, _NoIndex, Guarded>

extension _ObserverStorage where Guarded == _NothingGuarded {
  /// Creates an empty storage whose host guards nothing else with its lock.
  init() { self.init(guarding: _NothingGuarded()) }
}

/// What a storage's host guards with its lock besides the registrations,
/// told of each removal in the removal's section (README.md, section 2).
@usableFromInline
protocol _Guarded {
  /// Whether ``removed(_:)`` is to be called: a storage that guards
  /// nothing makes no access to what it guards, which a broadcast begun
  /// without the lock could be told apart from by no address.
  static var hearsRemovals: Bool { get }
  /// The registration whose payload is at `payload` was removed.
  mutating func removed(_ payload: UnsafeRawPointer)
}

/// Nothing guarded besides the registrations: a multicast delegate's.
@usableFromInline
struct _NothingGuarded: _Guarded {
  @usableFromInline static var hearsRemovals: Bool { false }

  @inline(__always)
  @usableFromInline
  func removed(_ payload: UnsafeRawPointer) {}
}
