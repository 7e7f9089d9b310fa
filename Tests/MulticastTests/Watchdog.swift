// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Testing

/// Ends the process unless it is stopped in time: an exit test's child that
/// deadlocks then fails with a message instead of hanging CI.
final class Watchdog: Sendable {
  /// The exit status of a child the watchdog ended.
  static let exitStatus: Int32 = 3

  private let finished = Signal()
  /// How far the work got, for the message.
  let progress = Locked(0)

  /// Starts a watchdog that ends the process, recording that `work` did
  /// not finish, unless ``stop()`` is called within `seconds`.
  ///
  /// The child reports the issue to the parent, which then fails the test
  /// twice: with it, and with the exit status.
  init(seconds: Double, _ work: String) {
    let (finished, progress) = (finished, progress)
    Thread {
      guard !finished.wait(until: Date().addingTimeInterval(seconds)) else { return }
      let reached = progress.withLock { $0 }
      Issue.record("\(work) did not finish in \(seconds) s; it reached \(reached)")
      // `_exit`, not `exit`: the exit handlers could wait on the stuck threads.
      _exit(Watchdog.exitStatus)
    }.start()
  }

  /// Tells the watchdog that the work finished.
  func stop() { finished.raise() }
}
