// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// Three subscribers of one event, the first of which sends again when it
/// hears 1; returns what each heard.
private func nestedSends(isolation: isolated (any Actor)? = #isolation) -> [[Int]] {
  let sender = EventSender<Int>()
  let logs = (0..<3).map { _ in Log() }
  let subscriptions = logs.indices.map { index in
    sender.event.observe { value in
      logs[index].append("\(value)")
      if index == 0, value == 1 { sender.send(2) }
    }
  }
  sender.send(1)
  withExtendedLifetime(subscriptions) {}
  return logs.map { $0.entries.compactMap(Int.init) }
}

/// A plain class whose nonisolated method broadcasts to main-actor
/// observers.
final class PlainReporter: Sendable {
  let observers = MulticastDelegate<any StepObserver>()
  func report(_ step: Int) { observers.onMainActor { $0.didReach(step) } }
}

/// Subscribes where no actor is, recording into `log`.
private func subscribeWithoutActor(_ sender: EventSender<Int>, _ log: Locked<[String]>)
  -> EventSubscription
{
  sender.event.observe { value in log.withLock { $0.append("none \(value)") } }
}

@Suite("The delivery model")
struct DeliveryModelTests {
  @Test(
    "A send made by a handler reaches every subscriber after the one in progress, on the main actor"
  )
  @MainActor
  func nestedSendsOnTheMainActor() {
    #expect(nestedSends() == [[1, 2], [1, 2], [1, 2]])
  }

  @Test(
    "A send made by a handler reaches every subscriber after the one in progress, where no actor is"
  )
  func nestedSendsWithoutAnActor() {
    #expect(nestedSends() == [[1, 2], [1, 2], [1, 2]])
  }

  @Test("An observer that assigns the value again: every observer ends at the current value")
  @MainActor
  func nestedAssignments() {
    let level = ObservableValue(0)
    var heard: [[Change]] = [[], [], []]
    let subscriptions = (0..<3).map { index in
      level.observe { old, new in
        heard[index].append(Change(old: old, new: new))
        if index == 0, new == 1 { level.value = 3 }
      }
    }
    level.value = 1
    let expected = [Change(old: 0, new: 1), Change(old: 1, new: 3)]
    #expect(heard == [expected, expected, expected])
    #expect(level.value == 3)
    withExtendedLifetime(subscriptions) {}
  }

  @Test(
    "A send on the main actor with work waiting there and none where no actor is: both destinations hear it before it returns, the main actor's after what waited"
  )
  @MainActor
  func oneLaneDirectTheOtherBatched() {
    let sender = EventSender<Int>()
    let log = Locked<[String]>([])
    let withoutActor = subscribeWithoutActor(sender, log)
    let onMain = sender.event.observe { value in log.withLock { $0.append("main \(value)") } }
    // Sent from a thread while the main actor is busy here: it waits there.
    runOnThreadAndWait { sender.send(1) }
    #expect(log.withLock { $0 } == ["none 1"])
    sender.send(2)
    #expect(log.withLock { $0 } == ["none 1", "none 2", "main 1", "main 2"])
    withExtendedLifetime((withoutActor, onMain)) {}
  }

  @Test("onMainActor from a nonisolated method called on the main actor delivers before it returns")
  @MainActor
  func onMainActorFromNonisolatedCode() {
    let reporter = PlainReporter()
    let view = StepView()
    reporter.observers.addObserver(view)
    reporter.report(1)
    #expect(view.steps == [1])
  }

  @Test(
    "onMainActor and onActor { @MainActor in } from one task reach the main actor in the order made"
  )
  @MainActor
  func twoQueuedFacesKeepOneOrder() async {
    let reporter = PlainReporter()
    let view = StepView()
    reporter.observers.addObserver(view)
    let observers = reporter.observers
    runOnThreadAndWait {
      for step in 0..<2_000 {
        if step.isMultiple(of: 2) {
          observers.onMainActor { $0.didReach(step) }
        } else {
          observers.onActor { @MainActor in $0.didReach(step) }
        }
      }
    }
    await waitForDeliveries()
    let misplaced = view.steps.enumerated().count { $0.offset != $0.element }
    #expect(view.steps.count == 2_000 && misplaced == 0, "\(misplaced) out of place")
  }
}
