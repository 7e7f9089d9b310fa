// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension MulticastDelegate {
  /// Calls `body` with each registered observer, in registration order.
  ///
  /// Observers added during the broadcast are not called by it; observers
  /// removed during it are not called if their turn has not come. `body` runs
  /// on the calling thread with no lock held.
  ///
  /// ```swift
  /// observers.invoke { $0.downloadDidFinish(self) }
  /// ```
  ///
  /// - Parameter body: What to do with each observer. The first error it
  ///   throws ends the broadcast and is rethrown.
  /// - Complexity: O(n), where n is the number of registrations; no heap
  ///   allocation.
  @inlinable
  public func invoke(_ body: (Observer) throws -> Void) rethrows {
    try storage.forEach { object, witnessTable in
      try _ObserverLayout.withObserver(object, witnessTable, body)
    }
  }

  /// Calls `body` with each registered observer, in registration order.
  ///
  /// This is ``invoke(_:)`` spelled as a call, so that a broadcast reads
  /// `observers { $0.downloadDidFinish(self) }`.
  ///
  /// - Parameter body: What to do with each observer. The first error it
  ///   throws ends the broadcast and is rethrown.
  /// - Complexity: O(n), where n is the number of registrations; no heap
  ///   allocation.
  @inlinable
  public func callAsFunction(_ body: (Observer) throws -> Void) rethrows {
    try invoke(body)
  }
}
