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

/// A non-recursive mutual-exclusion lock over the platform's own primitive.
///
/// It wraps `os_unfair_lock` on Apple platforms, `SRWLOCK` on Windows and a
/// `pthread_mutex_t` elsewhere. It deliberately avoids `Synchronization.Mutex`:
/// ThreadSanitizer on Linux does not see that type's futex hand-off and reports
/// false races, while it understands pthread mutexes.
///
/// The primitive lives in its own allocation because none of these may move
/// once in use. The lock is never held while user code runs.
@usableFromInline
struct _Lock: ~Copyable {
  #if canImport(Darwin)
  private typealias Primitive = os_unfair_lock
  #elseif os(Windows)
  private typealias Primitive = SRWLOCK
  #elseif os(WASI)
  private typealias Primitive = Void
  #else
  private typealias Primitive = pthread_mutex_t
  #endif

  private let primitive: UnsafeMutablePointer<Primitive>

  init() {
    primitive = .allocate(capacity: 1)
    #if canImport(Darwin)
    primitive.initialize(to: os_unfair_lock())
    #elseif os(Windows)
    InitializeSRWLock(primitive)
    #elseif os(WASI)
    primitive.initialize(to: ())
    #else
    let status = pthread_mutex_init(primitive, nil)
    precondition(status == 0, "pthread_mutex_init failed with error \(status)")
    #endif
  }

  deinit {
    #if !canImport(Darwin) && !os(Windows) && !os(WASI)
    pthread_mutex_destroy(primitive)
    #endif
    primitive.deinitialize(count: 1)
    primitive.deallocate()
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

  /// Runs `body` with the lock held.
  ///
  /// Whatever `body` returns is released by the caller, after the lock is
  /// released: return objects whose deinitializers might run user code.
  @inlinable
  func withLock<Result: ~Copyable, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}
