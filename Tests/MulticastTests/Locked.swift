import Foundation

/// A value behind a lock, for test observers that are called from many
/// threads. Unlike `Mutex` and `Atomic`, it is available on every OS version
/// the package supports.
final class Locked<Value: Sendable>: @unchecked Sendable {
  // @unchecked Sendable: `value` is read and written only with `lock` held.
  // The concurrency tests and the threads snippet use it from many tasks.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
