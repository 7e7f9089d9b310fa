// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Counts what arrives on the main actor, and lets a test wait until a number
/// of things have arrived: a join, not a poll.
@MainActor
final class Arrivals {
  private(set) var count = 0
  private var awaited = 0
  private var waiter: CheckedContinuation<Void, Never>?

  /// Counts one arrival, resuming the waiter once its number is reached.
  func arrive() {
    count += 1
    if count == awaited {
      waiter?.resume()
      waiter = nil
    }
  }

  /// Returns once `count` things have arrived in all.
  func wait(for count: Int) async {
    guard self.count < count else { return }
    await withCheckedContinuation { continuation in
      awaited = count
      waiter = continuation
    }
  }
}
