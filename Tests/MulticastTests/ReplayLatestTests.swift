// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// A value whose lifetime a test can watch.
private final class Reading: Sendable {
  let number: Int
  init(_ number: Int) { self.number = number }
}

/// A target that records the values it hears.
private final class ReplayTarget {
  var heard: [Int] = []
}

@Suite("An event that replays its latest value")
struct ReplayLatestTests {
  @Test("A new subscription hears the latest value before observe returns, then each new one")
  func latestThenNew() {
    let sender = EventSender<Int>(replaysLatest: true)
    sender.send(1)
    sender.send(2)
    var heard: [Int] = []
    let subscription = sender.event.observe { heard.append($0) }
    #expect(heard == [2])
    sender.send(3)
    #expect(heard == [2, 3])
    withExtendedLifetime(subscription) {}
  }

  @Test("Before any value is sent, a new subscription hears nothing until one is")
  func nothingSentYet() {
    let sender = EventSender<Int>(replaysLatest: true)
    var heard: [Int] = []
    let subscription = sender.event.observe { heard.append($0) }
    #expect(heard.isEmpty)
    sender.send(1)
    #expect(heard == [1])
    withExtendedLifetime(subscription) {}
  }

  @Test("A sender replays nothing unless asked to")
  func offByDefault() {
    for sender in [EventSender<Int>(), EventSender<Int>(replaysLatest: false)] {
      sender.send(1)
      var heard: [Int] = []
      let subscription = sender.event.observe { heard.append($0) }
      #expect(heard.isEmpty)
      withExtendedLifetime(subscription) {}
    }
  }

  @Test("The latest value is kept alive by a sender that replays it, and only by one")
  func keepsTheLatestAlive() {
    weak var replayed: Reading?
    weak var forgotten: Reading?
    let replaying = EventSender<Reading>(replaysLatest: true)
    let plain = EventSender<Reading>()
    do {
      let first = Reading(1)
      let second = Reading(2)
      replayed = first
      forgotten = second
      replaying.send(first)
      plain.send(second)
    }
    #expect(replayed?.number == 1)
    #expect(forgotten == nil)
    replaying.send(Reading(3))
    #expect(replayed == nil, "a value no longer the latest is released")
  }

  @Test("The target form, the values stream and the notice form replay as well")
  func everyForm() async {
    let notices = Locked<[String]>([])
    let sender = EventSender<Int>(
      replaysLatest: true, onFirstObserver: { notices.withLock { $0.append("first") } })
    sender.send(7)
    let target = ReplayTarget()
    sender.event.observe(target) { target, value in target.heard.append(value) }
    #expect(target.heard == [7])
    #expect(notices.withLock { $0 } == ["first"])
    let values = sender.event.values
    sender.send(8)
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next() == 7)
    #expect(await iterator.next() == 8)
    #expect(target.heard == [7, 8])
  }

  @Test("Observed once, the latest value is the one heard, and the subscription ends")
  func once() {
    let sender = EventSender<Int>(replaysLatest: true)
    var heard: [Int] = []
    let waiting = sender.event.observeOnce { heard.append($0) }
    sender.send(1)
    let replayed = sender.event.observeOnce { heard.append($0 * 10) }
    #expect(heard == [1, 10])
    sender.send(2)
    #expect(heard == [1, 10])
    #expect(!sender.hasObservers)
    withExtendedLifetime((waiting, replayed)) {}
  }

  @Test(
    "Subscribed from a handler, the value under way is the latest: heard after it, before the next")
  func fromAHandler() {
    let sender = EventSender<Int>(replaysLatest: true)
    var heard: [String] = []
    var inner: EventSubscription?
    let outer = sender.event.observe { value in
      heard.append("outer \(value)")
      if inner == nil {
        inner = sender.event.observe { heard.append("inner \($0)") }
        sender.send(value + 1)
      }
    }
    sender.send(1)
    #expect(heard == ["outer 1", "inner 1", "outer 2", "inner 2"])
    withExtendedLifetime((outer, inner)) {}
  }

  @Test("Ending every subscription keeps the latest value for the next one")
  func removeAllKeepsTheLatest() {
    let sender = EventSender<Int>(replaysLatest: true)
    sender.send(4)
    var heard: [Int] = []
    let first = sender.event.observe { heard.append($0) }
    sender.removeAllObservers()
    let second = sender.event.observe { heard.append($0 * 10) }
    #expect(heard == [4, 40])
    withExtendedLifetime((first, second)) {}
  }

  @Test(
    "While a thread sends 1, 2, 3, ..., subscriptions made where no actor is and on the main actor hear the latest, then every later one: no gap, no repeat",
    arguments: [false, true])
  func noGapUnderSends(onMainActor: Bool) async {
    let sender = EventSender<Int>(replaysLatest: true)
    let problems = await noGapProblems(
      count: 20_000, subscriptions: 200, onMainActor: onMainActor, send: { sender.send($0) }
    ) { log, isolation in
      sender.event.observe(isolation: isolation) { value in log.withLock { $0.append(value) } }
    }
    #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
  }
}
