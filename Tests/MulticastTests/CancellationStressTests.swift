// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Testing

@testable import Multicast

/// The progress of one sending thread: the number of the send it began
/// last, and of the one it finished last.
final class SendProgress: Sendable {
  let started = Locked(-1)
  let finished = Locked(-1)
  let isDone = Locked(false)

  var lastStarted: Int { started.withLock { $0 } }
  var lastFinished: Int { finished.withLock { $0 } }
}

/// One subscription made and cancelled while a thread sends: what it heard,
/// and the sender's progress around it.
struct CancelledWindow: Sendable {
  /// What the subscription heard, read once the sender has stopped: what
  /// reached it late is there too.
  let heard: Locked<[Int]>
  var received: [Int] { heard.withLock { $0 } }
  /// The last send begun when subscribing returned: every later one began
  /// after the subscription existed.
  var startedWhenSubscribed: Int
  /// The last send finished when `cancel()` was called: it and every one
  /// before it were delivered before the subscription ended.
  var finishedWhenCancelling: Int
  /// The last send begun when `cancel()` returned, read after it returned:
  /// no later send may reach the subscription.
  var startedWhenCancelled: Int
}

/// What is wrong with what `window`'s subscription heard: a value heard out
/// of order or twice, a value sent after its `cancel()` returned, or a
/// value sent wholly while it was subscribed and missed.
func cancellationProblems(_ window: CancelledWindow) -> [String] {
  var problems: [String] = []
  let received = window.received
  for (earlier, later) in zip(received, received.dropFirst()) where later <= earlier {
    problems.append("heard \(later) after \(earlier)")
  }
  if let late = received.first(where: { $0 > window.startedWhenCancelled }) {
    problems.append(
      "heard \(late), sent after cancel() returned (the last send begun then was \(window.startedWhenCancelled))"
    )
  }
  let heard = Set(received)
  if window.startedWhenSubscribed < window.finishedWhenCancelling,
    let missed = (window.startedWhenSubscribed + 1...window.finishedWhenCancelling).first(where: {
      !heard.contains($0)
    })
  {
    problems.append(
      "missed \(missed), sent and delivered while subscribed (from \(window.startedWhenSubscribed + 1) to \(window.finishedWhenCancelling))"
    )
  }
  return problems
}

/// A target for the target form of subscribing.
final class CancelledTarget: Sendable {
  let received = Locked<[Int]>([])
}

/// Subscribes and cancels `rounds` times on the calling thread while
/// `progress`'s thread sends, alternating the closure form and the target
/// form, and waiting each time until at least two more sends finished.
func subscribeAndCancel(
  _ event: Event<Int>, _ progress: SendProgress, rounds: Int
) -> [CancelledWindow] {
  var windows: [CancelledWindow] = []
  for round in 0..<rounds {
    let received: Locked<[Int]>
    let subscription: EventSubscription
    let target = CancelledTarget()
    if round.isMultiple(of: 2) {
      let heard = Locked<[Int]>([])
      received = heard
      subscription = event.observe { value in heard.withLock { $0.append(value) } }
    } else {
      received = target.received
      subscription = event.observe(target) { target, value in
        target.received.withLock { $0.append(value) }
      }
    }
    let startedWhenSubscribed = progress.lastStarted
    // Stay subscribed until the sender has finished two more sends, or it
    // has stopped.
    let waitFor = progress.lastFinished + 2
    while progress.lastFinished < waitFor, !progress.isDone.withLock({ $0 }) {
      Thread.yield()
    }
    let finishedWhenCancelling = progress.lastFinished
    subscription.cancel()
    let startedWhenCancelled = progress.lastStarted
    // A second cancel changes nothing.
    subscription.cancel()
    windows.append(
      CancelledWindow(
        heard: received, startedWhenSubscribed: startedWhenSubscribed,
        finishedWhenCancelling: finishedWhenCancelling,
        startedWhenCancelled: startedWhenCancelled))
    withExtendedLifetime(target) {}
  }
  return windows
}

@Suite("Cancelling under load")
struct CancellationStressTests {
  @Test(
    "Threads subscribe and cancel while another thread sends: each subscription hears in order what was sent while it was subscribed, and nothing sent after its cancel() returned"
  )
  func cancelWhileSending() async {
    let sender = EventSender<Int>()
    let event = sender.event
    let progress = SendProgress()
    let (subscribers, rounds) = (3, 300)
    // Ten subscriptions stay for the whole run, so that sends walk past
    // others on both sides of those that come and go.
    let staying = (0..<10).map { _ in event.observe { _ in } }

    async let producer: Void = onNewThread {
      var value = 0
      while !progress.isDone.withLock({ $0 }) {
        progress.started.withLock { $0 = value }
        sender.send(value)
        progress.finished.withLock { $0 = value }
        value += 1
      }
    }
    let windows = await withTaskGroup(of: [CancelledWindow].self) { group in
      for _ in 0..<subscribers {
        group.addTask { await onNewThread { subscribeAndCancel(event, progress, rounds: rounds) } }
      }
      var windows: [CancelledWindow] = []
      for await some in group { windows += some }
      progress.isDone.withLock { $0 = true }
      return windows
    }
    await producer

    #expect(windows.count == subscribers * rounds)
    let problems = windows.enumerated().flatMap { number, window in
      cancellationProblems(window).map { "subscription \(number): \($0)" }
    }
    #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
    // Most subscriptions heard something: the check had values to check.
    #expect(windows.filter { !$0.received.isEmpty }.count > windows.count / 2)
    withExtendedLifetime(staying) {}
    #expect(sender.core.storage.liveCount == staying.count)
  }

  @Test(
    "Main-actor subscriptions are cancelled while a thread sends to them: no handler runs after its cancel() returned, though values still waited for it on the main actor"
  )
  @MainActor
  func cancelWithValuesWaiting() async {
    let sender = EventSender<Int>()
    let progress = SendProgress()
    let lateCalls = Locked(0)
    var heardAny = 0
    // Signalled once a round: the producer then sends a burst of values.
    let round = DispatchSemaphore(value: 0)

    async let producer: Void = onNewThread {
      var value = 0
      while true {
        round.wait()
        if progress.isDone.withLock({ $0 }) { return }
        for _ in 0..<50 {
          sender.send(value)
          value += 1
        }
      }
    }
    for _ in 0..<200 {
      var isCancelled = false
      var received: [Int] = []
      let subscription = sender.event.observe { value in
        if isCancelled { lateCalls.withLock { $0 += 1 } }
        received.append(value)
      }
      // Let values queue up for the main actor, and some be delivered.
      round.signal()
      for _ in 0..<3 { await Task.yield() }
      subscription.cancel()
      isCancelled = true
      if !received.isEmpty { heardAny += 1 }
      #expect(zip(received, received.dropFirst()).allSatisfy { $0 < $1 })
    }
    // Give whatever was still queued its turn on the main actor.
    progress.isDone.withLock { $0 = true }
    round.signal()
    await producer
    await waitForDeliveries()

    #expect(lateCalls.withLock { $0 } == 0)
    #expect(heardAny > 0)
    #expect(!sender.hasObservers)
  }
}
