// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

/// An actor that runs on the main actor's executor, as an actor can choose.
private actor OnMainExecutor {
  nonisolated var unownedExecutor: UnownedSerialExecutor { MainActor.sharedUnownedExecutor }
  private(set) var heard: [Int] = []

  func subscribe(to event: Event<Int>) -> EventSubscription {
    event.observe(actor: self) { me, value in me.heard.append(value) }
  }
}

/// Sends from code isolated to no actor: where it runs decides.
private func sendFromNoActor(_ sender: EventSender<Int>, _ value: Int) {
  sender.send(value)
}

/// Subscribes from code isolated to no actor.
private func subscribeFromNoActor(
  _ event: Event<Int>, _ log: Locked<[Int]>
) -> EventSubscription {
  event.observe { value in log.withLock { $0.append(value) } }
}

@Suite("Actors that share an executor")
struct SharedExecutorTests {
  /// Code that runs on every destination's executor delivers to each
  /// before the send returns, so the checks need no wait: a destination
  /// left delivering shows as a value missing, not as a test that hangs.
  @Test(
    "A send from code isolated to no actor, running on an executor that the main actor and another actor share, reaches the subscriptions of both actors and of no actor before it returns, every time"
  )
  @MainActor
  func sendOnSharedExecutor() async {
    let sender = EventSender<Int>()
    let other = OnMainExecutor()
    let otherSubscription = await other.subscribe(to: sender.event)
    var onMain: [Int] = []
    let mainSubscription = sender.event.observe { onMain.append($0) }
    let log = Locked<[Int]>([])
    let noActorSubscription = subscribeFromNoActor(sender.event, log)
    let heardByOther = sendThree(sender, readingBack: other)
    #expect(onMain == [0, 1, 2])
    #expect(heardByOther == [0, 1, 2])
    #expect(log.withLock { $0 } == [0, 1, 2])
    withExtendedLifetime((otherSubscription, mainSubscription, noActorSubscription)) {}
  }

  /// Sends 0, 1 and 2, then reads what `other` heard, with no suspension
  /// between: `other` runs on this executor, so nothing else can run.
  @MainActor
  private func sendThree(_ sender: EventSender<Int>, readingBack other: OnMainExecutor) -> [Int] {
    for value in 0..<3 { sendFromNoActor(sender, value) }
    return other.assumeIsolated { $0.heard }
  }
}
