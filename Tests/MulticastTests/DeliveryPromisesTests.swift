// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Testing

@testable import Multicast

@Suite("Cross-actor promises when threads race")
struct DeliveryPromisesTests {
  @Test(
    "A change made on the owner's actor while earlier notices wait for it tells them, then its own, before it returns"
  )
  @MainActor
  func noticesInOrderAtOnce() {
    let log = MainLog()
    let sender = EventSender<Int>(
      onFirstObserver: { log.entries.append("first") },
      onLastObserverGone: { log.entries.append("last") })
    let event = sender.event
    // The main actor is held by this join, so the notices of a thread's
    // subscribing and cancelling wait in its queue.
    runOnThreadAndWait {
      let subscription = event.observe { _ in }
      subscription.cancel()
    }
    #expect(log.entries.isEmpty)
    let subscription = event.observe { _ in }
    #expect(log.entries == ["first", "last", "first"])
    withExtendedLifetime(subscription) {}
  }
}

/// A main-actor observer of a producer's steps, through both faces.
@MainActor
protocol StepObserver: AnyObject, Sendable {
  func didReach(_ step: Int)
}

@MainActor
final class StepView: StepObserver {
  private(set) var steps: [Int] = []
  private var subscription: EventSubscription?

  func listen(to progress: Event<Int>) {
    subscription = progress.observe { [unowned self] in steps.append($0) }
  }

  func didReach(_ step: Int) { steps.append(step) }
}

/// An actor that reports its steps in turn through a multicast delegate and
/// an event.
actor StepProducer {
  let observers = MulticastDelegate<any StepObserver>()
  private let progressSender = EventSender<Int>()
  nonisolated var progress: Event<Int> { progressSender.event }

  func run(_ steps: Range<Int>) {
    for step in steps {
      if step.isMultiple(of: 2) {
        observers.onMainActor { $0.didReach(step) }
      } else {
        progressSender.send(step)
      }
    }
  }
}

extension DeliveryPromisesTests {
  @Test(
    "An actor alternating onMainActor broadcasts and event sends reaches a main-actor view in the order sent, with the main actor busy meanwhile"
  )
  @MainActor
  func oneOrderAcrossFaces() async {
    let producer = StepProducer()
    let view = StepView()
    producer.observers.addObserver(view)
    view.listen(to: producer.progress)
    // The main actor is held by this join while the producer runs, so that
    // everything it sends waits in the main actor's queue.
    runOnThreadAndWait {
      let done = DispatchSemaphore(value: 0)
      Task.detached {
        await producer.run(0..<4_000)
        done.signal()
      }
      done.wait()
    }
    #expect(view.steps.isEmpty)
    await waitForDeliveries()
    let misplaced = view.steps.enumerated().count { $0.offset != $0.element }
    #expect(view.steps.count == 4_000 && misplaced == 0, "\(misplaced) steps out of place")
  }
}
