// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

@Suite("Releasing the sender ends the subscriptions still held")
struct HeldSubscriptionTests {
  @Test(
    "Releasing an event's sender or an observable value releases the handlers of the subscriptions a subscriber still holds",
    arguments: StreamPlace.allCases)
  func releasingTheSourceReleasesHeldHandlers(place: StreamPlace) async {
    var owner: (any StreamOwner)? = await place.makeOwner()
    let subscriber = await place.makeSubscriber()
    weak let captured = await subscriber.subscribe(to: owner!)
    await owner!.send(1...2)
    await waitForDeliveries()
    #expect(captured != nil, "the handlers keep what they captured while the sender lives")
    #expect(await subscriber.heard == ["tick 1", "level 1", "tick 2", "level 2"])
    owner = nil
    #expect(captured == nil, "the handlers were released with the sender and the value")
    #expect(await subscriber.heldCount == 2, "their subscriptions are still held")
    await subscriber.cancelAll()  // does nothing, harmlessly
  }
}

extension StreamPlace {
  func makeSubscriber() async -> any HeldSubscriber {
    switch self {
    case .mainActor: MainActorHeldSubscriber()
    case .plainClass: PlainHeldSubscriber()
    case .actor: ActorHeldSubscriber()
    }
  }
}

/// What a handler captures, to see when the handler is released.
final class Captured: Sendable {}

/// What keeps its subscriptions in a set, as a Combine user keeps
/// cancellables.
protocol HeldSubscriber: AnyObject, Sendable {
  /// Subscribes to the owner's event and value with handlers that capture a
  /// new object, returned.
  func subscribe(to owner: any StreamOwner) async -> Captured
  /// What the handlers heard.
  var heard: [String] { get async }
  /// How many subscriptions are held.
  var heldCount: Int { get async }
  func cancelAll() async
}

@MainActor
final class MainActorHeldSubscriber: HeldSubscriber {
  private(set) var heard: [String] = []
  private var subscriptions: Set<EventSubscription> = []
  var heldCount: Int { subscriptions.count }

  func subscribe(to owner: any StreamOwner) -> Captured {
    let captured = Captured()
    owner.ticks.observe { [captured] in
      withExtendedLifetime(captured) {}
      self.heard.append("tick \($0)")
    }.store(in: &subscriptions)
    owner.level.observe { [captured] _, new in
      withExtendedLifetime(captured) {}
      self.heard.append("level \(new)")
    }.store(in: &subscriptions)
    return captured
  }

  func cancelAll() { for subscription in subscriptions { subscription.cancel() } }
}

final class PlainHeldSubscriber: HeldSubscriber {
  private let state = Locked<(heard: [String], subscriptions: Set<EventSubscription>)>(([], []))

  var heard: [String] { state.withLock { $0.heard } }
  var heldCount: Int { state.withLock { $0.subscriptions.count } }

  func subscribe(to owner: any StreamOwner) -> Captured {
    let captured = Captured()
    let ticks = owner.ticks.observe { [captured] in
      withExtendedLifetime(captured) {}
      self.record("tick \($0)")
    }
    let levels = owner.level.observe { [captured] _, new in
      withExtendedLifetime(captured) {}
      self.record("level \(new)")
    }
    state.withLock { $0.subscriptions = [ticks, levels] }
    return captured
  }

  func cancelAll() {
    for subscription in state.withLock({ $0.subscriptions }) { subscription.cancel() }
  }

  private func record(_ entry: String) { state.withLock { $0.heard.append(entry) } }
}

actor ActorHeldSubscriber: HeldSubscriber {
  private(set) var heard: [String] = []
  private var subscriptions: Set<EventSubscription> = []
  var heldCount: Int { subscriptions.count }

  func subscribe(to owner: any StreamOwner) -> Captured {
    let captured = Captured()
    owner.ticks.observe { [captured] in
      withExtendedLifetime(captured) {}
      self.heard.append("tick \($0)")
    }.store(in: &subscriptions)
    owner.level.observe { [captured] _, new in
      withExtendedLifetime(captured) {}
      self.heard.append("level \(new)")
    }.store(in: &subscriptions)
    return captured
  }

  func cancelAll() { for subscription in subscriptions { subscription.cancel() } }
}
