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
                // Heard at once, or by the thread delivering to the destination
                // or a drain; a lost value waits out a bound above a whole run
                // under a sanitizer.
                if !heard.wait(until: Date().addingTimeInterval(300)) {
                  lost.withLock { $0 += 1 }
                }
                subscription.cancel()
                // One loss fails the test: no thread waits out another.
                if lost.withLock({ $0 }) > 0 { break }
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

/// Runs `body` on a thread of its own, isolated to no actor; returns whether
/// it finished within `seconds` (a deadlock leaves the thread behind).
func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
  let done = Signal()
  Thread {
    body()
    done.raise()
  }.start()
  return done.wait(until: Date().addingTimeInterval(seconds))
}

/// A sender that one of its own notices reaches.
final class SenderBox: @unchecked Sendable {
  // @unchecked Sendable: `sender` is set once, before anything sends.
  var sender: EventSender<Int>?
}

@Suite("Derived events and user code under the link")
struct DerivedReentrancyTests {
  @Test("A subscription for one value to a derived event of a replaying sender returns")
  func onceOnDerivedOfReplayingSender() {
    let heard = Locked<[Int]>([])
    let returned = finishes(within: 10) {
      let sender = EventSender<Int>(replaysLatest: true)
      sender.send(1)
      let once = sender.event.map { $0 + 1 }.observeOnce { v in heard.withLock { $0.append(v) } }
      withExtendedLifetime(once) {}
    }
    #expect(returned, "subscribing deadlocked: the replayed value ended the subscription")
    #expect(heard.withLock { $0 } == [2])
  }

  @Test("A subscription for one value to a derived event whose sender sends on its first observer")
  func onceOnDerivedWithSendingNotice() {
    let heard = Locked<[Int]>([])
    let returned = finishes(within: 10) {
      let box = SenderBox()
      let sender = EventSender<Int>(onFirstObserver: { box.sender?.send(42) })
      box.sender = sender
      let once = sender.event.map { $0 }.observeOnce { v in heard.withLock { $0.append(v) } }
      withExtendedLifetime((once, sender)) {}
      box.sender = nil  // the notice's capture of the box made a cycle
    }
    #expect(returned, "subscribing deadlocked: the notice's value ended the subscription")
    #expect(heard.withLock { $0 } == [42])
  }

  @Test("A derived event subscribed again replays the latest value, never one it had before")
  func noStaleReplay() {
    let sender = EventSender<Int>(replaysLatest: true)
    let tens = sender.event.map { $0 * 10 }
    let notSeven = sender.event.filter { $0 != 7 }
    sender.send(5)
    var heard: [String] = []
    var kept = [
      tens.observe { heard.append("tens \($0)") }, notSeven.observe { heard.append("kept \($0)") },
    ]
    #expect(heard == ["tens 50", "kept 5"])
    kept.removeAll()
    sender.send(7)
    heard = []
    kept = [
      tens.observe { heard.append("tens \($0)") }, notSeven.observe { heard.append("kept \($0)") },
    ]
    #expect(heard == ["tens 70"])
    withExtendedLifetime(kept) {}
  }
}
