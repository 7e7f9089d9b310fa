// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif os(Windows)
import WinSDK
#endif

/// A non-recursive lock over the platform's own primitive, in memory its keeper allocates,
/// since none may move once in use.
///
/// Not `Synchronization.Mutex`: it needs macOS 15 or iOS 18; ThreadSanitizer on Linux misreads it.
@usableFromInline
struct _Lock {
  #if canImport(Darwin)
  private typealias Primitive = os_unfair_lock
  #elseif os(Windows)
  private typealias Primitive = SRWLOCK
  #elseif os(WASI)
  private typealias Primitive = Void
  #else
  private typealias Primitive = pthread_mutex_t
  #endif

  static var byteCount: Int { MemoryLayout<Primitive>.stride }
  static var alignment: Int { MemoryLayout<Primitive>.alignment }

  @usableFromInline
  let memory: UnsafeMutableRawPointer

  private var primitive: UnsafeMutablePointer<Primitive> {
    memory.assumingMemoryBound(to: Primitive.self)
  }

  /// Initializes a lock in `memory`, ``byteCount`` bytes aligned to ``alignment``.
  init(initializing memory: UnsafeMutableRawPointer) {
    self.memory = memory
    let primitive = memory.bindMemory(to: Primitive.self, capacity: 1)
    #if canImport(Darwin)
    primitive.initialize(to: os_unfair_lock())
    #elseif os(Windows)
    InitializeSRWLock(primitive)
    #elseif os(WASI)
    primitive.initialize(to: ())
    #else
    #if canImport(Glibc)
    // Held for a few instructions: spinning briefly beats sleeping.
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
    let status = pthread_mutex_init(primitive, &attributes)
    pthread_mutexattr_destroy(&attributes)
    #else
    let status = pthread_mutex_init(primitive, nil)
    #endif
    precondition(status == 0, "pthread_mutex_init failed with error \(status)")
    #endif
  }

  /// Ends the lock's life; its memory may then be freed.
  func destroy() {
    #if !canImport(Darwin) && !os(Windows) && !os(WASI)
    pthread_mutex_destroy(primitive)
    #endif
    primitive.deinitialize(count: 1)
  }

  @usableFromInline
  func lock() {
    #if canImport(Darwin)
    os_unfair_lock_lock(primitive)
    #elseif os(Windows)
    AcquireSRWLockExclusive(primitive)
    #elseif os(WASI)
    #else
    let status = pthread_mutex_lock(primitive)
    precondition(status == 0, "pthread_mutex_lock failed with error \(status)")
    #endif
  }

  @usableFromInline
  func unlock() {
    #if canImport(Darwin)
    os_unfair_lock_unlock(primitive)
    #elseif os(Windows)
    ReleaseSRWLockExclusive(primitive)
    #elseif os(WASI)
    #else
    let status = pthread_mutex_unlock(primitive)
    precondition(status == 0, "pthread_mutex_unlock failed with error \(status)")
    #endif
  }

  /// Runs `body` with the lock held; the caller releases its result after unlocking.
  @inlinable
  func withLock<Result: ~Copyable, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// State reached only with its lock held, both in one allocation, as the
/// storage keeps its own (README.md, section 2).
struct _Locked<State>: ~Copyable {
  private let lock: _Lock
  private let state: UnsafeMutablePointer<State>

  init(_ initial: State) {
    let stateOffset = _BufferLayout.aligned(_Lock.byteCount, to: MemoryLayout<State>.alignment)
    let memory = UnsafeMutableRawPointer.allocate(
      byteCount: stateOffset + MemoryLayout<State>.size,
      alignment: Swift.max(_Lock.alignment, MemoryLayout<State>.alignment))
    lock = _Lock(initializing: memory)
    state = (memory + stateOffset).bindMemory(to: State.self, capacity: 1)
    state.initialize(to: initial)
  }

  deinit {
    state.deinitialize(count: 1)
    lock.destroy()
    lock.memory.deallocate()
  }

  /// Runs `body` on the state with the lock held; what it returns is released
  /// after unlocking, by the caller.
  func withLock<Result: ~Copyable>(_ body: (inout State) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&state.pointee)
  }
}
