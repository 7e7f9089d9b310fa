// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension MulticastDelegate {
  /// Calls the asynchronous `body` with each registered observer in turn, in
  /// registration order, awaiting each call before the next.
  ///
  /// For an observer protocol with `async` methods:
  ///
  /// ```swift
  /// @MainActor
  /// protocol DocumentObserver: AnyObject {
  ///   func documentWillClose(_ document: Document) async
  /// }
  ///
  /// // In Document, on the main actor:
  /// try await observers.awaitEach { await $0.documentWillClose(self) }
  /// ```
  ///
  /// In a target built without the `NonisolatedNonsendingByDefault` feature,
  /// a plain `async` method of a protocol with no isolation runs off the
  /// caller's actor, and the compiler refuses to send it a non-`Sendable`
  /// observer. Make the protocol `@MainActor` or `Sendable`, or declare the
  /// method `nonisolated(nonsending)`.
  ///
  /// The rules of a broadcast hold across the awaits: it calls the observers
  /// registered when it began, minus those removed or released before their
  /// turn, and an observer added meanwhile is first called by the next one.
  /// Each observer is held strongly only during its own call. No lock is held
  /// and no storage is pinned while a call is awaited, so observers may add,
  /// remove and broadcast as they like.
  ///
  /// `body` runs in the caller's isolation, one call at a time.
  ///
  /// - Parameter body: What to do with each observer.
  /// - Throws: The first error `body` throws, which ends the broadcast; or
  ///   `CancellationError` if the task is cancelled before an observer's
  ///   turn: the check comes before each observer, so none is called once
  ///   the task is cancelled.
  /// - Complexity: O(log n) per observer to find its turn, where n is the
  ///   number of registrations, plus the calls.
  @inlinable
  public func awaitEach(_ body: (Observer) async throws -> Void) async throws {
    try await forEachLive(registeredBefore: storage.nextSequence) { observer in
      try Task.checkCancellation()
      try await body(observer)
    }
  }

  /// Awaits `body` with each live observer registered before the one
  /// numbered `end`, one at a time, in registration order.
  ///
  /// Each observer is read under the lock just before its turn and held only
  /// while `body` runs for it: no lock or buffer is held across an await.
  @inlinable
  func forEachLive(
    registeredBefore end: UInt64, _ body: (Observer) async throws -> Void
  ) async rethrows {
    var next: UInt64 = 0
    while let (object, witnessTable, sequence) = storage.firstLive(from: next, before: end) {
      next = sequence + 1
      try await body(_ObserverLayout.observer(consume object, witnessTable))
    }
  }
}
