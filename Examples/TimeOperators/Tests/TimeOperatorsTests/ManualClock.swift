// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation

/// A clock that moves only when a test advances it, and tells the test when
/// something sleeps on it: time operators tested without waiting for time.
final class ManualClock: Clock, @unchecked Sendable {
  // @unchecked Sendable: every stored property is read and written with
  // `lock` held. The tests sleep on it from the operators' tasks while the
  // test advances it.

  struct Instant: InstantProtocol {
    var offset: Duration

    func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let wake: CheckedContinuation<Void, any Error>
  }

  private let lock = NSLock()
  private var current = Instant(offset: .zero)
  private var sleepers: [Sleeper] = []
  private var nextID: UInt64 = 0
  /// Tests waiting for a sleeper whose deadline is at least theirs.
  private var watchers: [(deadline: Instant, found: CheckedContinuation<Void, Never>)] = []

  var now: Instant { lock.withLock { current } }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    let id = lock.withLock {
      nextID += 1
      return nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (wake: CheckedContinuation<Void, any Error>) in
        let (resume, found) = lock.withLock {
          () -> (Bool, [CheckedContinuation<Void, Never>]) in
          if deadline <= current || Task.isCancelled { return (true, []) }
          sleepers.append(Sleeper(id: id, deadline: deadline, wake: wake))
          let found = watchers.filter { $0.deadline <= deadline }.map(\.found)
          watchers.removeAll { $0.deadline <= deadline }
          return (false, found)
        }
        if resume {
          if Task.isCancelled { wake.resume(throwing: CancellationError()) } else { wake.resume() }
        }
        for watcher in found { watcher.resume() }
      }
    } onCancel: {
      let cancelled = lock.withLock { () -> Sleeper? in
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return sleepers.remove(at: index)
      }
      cancelled?.wake.resume(throwing: CancellationError())
    }
  }

  /// Returns once something sleeps on the clock until `deadline` or later.
  func sleeper(until deadline: Instant) async {
    await withCheckedContinuation { (found: CheckedContinuation<Void, Never>) in
      let isThere = lock.withLock {
        if sleepers.contains(where: { $0.deadline >= deadline }) { return true }
        watchers.append((deadline, found))
        return false
      }
      if isThere { found.resume() }
    }
  }

  /// Moves the clock on by `duration`, and wakes what slept until then.
  func advance(by duration: Duration) {
    let woken = lock.withLock { () -> [Sleeper] in
      current = current.advanced(by: duration)
      let woken = sleepers.filter { $0.deadline <= current }
      sleepers.removeAll { $0.deadline <= current }
      return woken
    }
    for sleeper in woken { sleeper.wake.resume() }
  }
}

/// An asynchronous sequence that tells a test each time its consumer asks
/// for the next element: after the k-th request, the consumer has handled
/// the elements before it.
///
/// The requests finish when the base ends.
struct Probed<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  typealias Element = Base.Element
  let base: Base
  let requests: AsyncStream<Int>.Continuation

  struct AsyncIterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let requests: AsyncStream<Int>.Continuation
    var count = 0

    mutating func next() async throws -> Base.Element? {
      count += 1
      requests.yield(count)
      let element = try await base.next()
      if element == nil { requests.finish() }
      return element
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: base.makeAsyncIterator(), requests: requests)
  }
}

extension AsyncStream<Int> {
  /// Returns once the consumer has asked for its `count`-th element.
  func request(_ count: Int) async {
    for await request in self where request >= count { return }
  }

  /// Returns once the base has ended.
  func end() async {
    for await _ in self {}
  }
}
