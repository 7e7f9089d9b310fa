// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Testing

@testable import Multicast

/// A flag one thread raises and another waits for, up to a deadline.
final class Signal: @unchecked Sendable {
  // @unchecked Sendable: `isRaised` is read and written only with
  // `condition` locked.
  private let condition = NSCondition()
  private var isRaised = false

  func raise() {
    condition.lock()
    isRaised = true
    condition.broadcast()
    condition.unlock()
  }

  /// Whether the flag was raised before `deadline`.
  func wait(until deadline: Date) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while !isRaised {
      if !condition.wait(until: deadline) { return isRaised }
    }
    return true
  }
}

@Suite("Derived events under threads")
struct DerivedStressTests {
  @Test(
    "A subscription to a derived event hears every value sent after observe returns, whatever other threads do",
    arguments: ["map", "filter", "compactMap", "plain"])
  func noValueIsLost(form: String) async {
    let sender = EventSender<Int>()
    let derived: Event<Int> =
      switch form {
      case "map": sender.event.map { $0 }
      case "filter": sender.event.filter { _ in true }
      case "compactMap": sender.event.compactMap { $0 }
      default: sender.event
      }
    let lost = Locked(0)
    let threads = 4
    let cycles = 5_000
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<threads {
        group.addTask {
          await withCheckedContinuation { done in
            Thread {
              for cycle in 0..<cycles {
                let mine = thread * cycles + cycle
                let heard = Signal()
                let subscription = derived.observe { if $0 == mine { heard.raise() } }
                sender.send(mine)
                // Heard at once, or by the thread delivering to the lane.
                if !heard.wait(until: Date().addingTimeInterval(1)) {
                  lost.withLock { $0 += 1 }
                }
                subscription.cancel()
              }
              done.resume()
            }.start()
          }
        }
      }
    }
    #expect(lost.withLock { $0 } == 0, "values sent after observe returned were never heard")
  }
}
