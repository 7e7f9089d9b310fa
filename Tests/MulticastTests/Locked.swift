// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation

/// A value behind a lock, for test observers called from many threads.
///
/// Unlike `Mutex` and `Atomic`, it is available on every OS version
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
