// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Testing

@testable import Multicast

/// Sends `1...count` on `sender` from a new thread, and returns once all
/// are sent: the caller's isolation, blocked meanwhile, runs no handler.
private func sendAll(_ count: Int, on sender: EventSender<Int>) {
  let sent = DispatchSemaphore(value: 0)
  Thread {
    for value in 1...count { sender.send(value) }
    sent.signal()
  }.start()
  sent.wait()
}

/// Assigns `values` to `value` from a new thread, as ``sendAll(_:on:)``.
private func assignAll(_ values: ClosedRange<Int>, to value: ObservableValue<Int>) {
  let assigned = DispatchSemaphore(value: 0)
  Thread {
    for newValue in values { value.set(newValue) }
    assigned.signal()
  }.start()
  assigned.wait()
}

/// How many jobs `core` made wait on its destinations, and how many others
/// wait there; read where no job there can run.
private func waitingJobs(of core: _EventCore<Int>?) -> (own: Int, others: Int) {
  guard let core else { return (0, 0) }
  return core.destinationsForTesting.reduce((0, 0)) { sum, destination in
    let own = destination.waitingCount(madeBy: core)
    return (sum.own + own, sum.others + destination.withLockedState { $0.waiting.count } - own)
  }
}

/// Whether a job's source replaces what it has waiting with newer values.
private protocol CoalescingSource {
  var isCoalescing: Bool { get }
}

extension _EventCore: CoalescingSource {
  fileprivate var isCoalescing: Bool { coalesces }
}

/// How many jobs wait on `destination` between each two that `core` made,
/// and how many jobs of other coalescing sources wait there.
private func gapsBetweenJobs(
  of core: AnyObject, on destination: _Destination
) -> (gaps: [Int], coalescing: Int) {
  destination.withLockedState { state in
    var (gaps, coalescing, last) = ([Int](), 0, Int?.none)
    for (position, job) in state.waiting.enumerated() {
      if job.source as AnyObject === core {
        if let last { gaps.append(position - last - 1) }
        last = position
      } else if (job.source as? any CoalescingSource)?.isCoalescing == true {
        coalescing += 1
      }
    }
    return (gaps, coalescing)
  }
}

@Suite("Subscriptions that hear only the latest value")
struct LatestDeliveryTests {
  @MainActor
  @Test(
    "On the main actor, values sent while it was busy reach a subscription for the latest a few times, in order, the last one last; one for every value hears each",
    arguments: [1_000, 10_000])
  func mainActorHearsTheLatest(count: Int) async {
    let sender = EventSender<Int>()
    var latest: [Int] = []
    var every: [Int] = []
    let subscriptions = [
      sender.event.observe(delivering: .latest) { latest.append($0) },
      sender.event.observe { every.append($0) },
    ]
    sendAll(count, on: sender)
    // Still on the main actor, which ran nothing meanwhile: every value waits.
    let core = sender.event.core.latestOnlyIfMade
    let (own, _) = waitingJobs(of: core)
    let (gaps, coalescing) = core.map { gapsBetweenJobs(of: $0, on: .main) } ?? ([], 0)
    await waitForDeliveries()

    #expect(latest.last == count)
    #expect(zip(latest, latest.dropFirst()).allSatisfy { $0 < $1 })
    #expect(every.count == count && every.elementsEqual(1...count))
    // Each job waiting for the latest is heard once. It is one, unless
    // other tests' work for the main actor came between: a value behind 8
    // jobs keeps its place, so 8 jobs came after it, of which only another
    // coalescing source's may since have moved last.
    #expect(latest.count == own, "heard \(latest.count), \(own) jobs waited")
    #expect(own >= 1 && own == gaps.count + 1)
    #expect(
      gaps.allSatisfy { $0 >= 8 - coalescing },
      "jobs between those for the latest: \(gaps), \(coalescing) coalescing")
    withExtendedLifetime(subscriptions) {}
  }

  @MainActor
  @Test(
    "An observable value's observer for the latest hears as old the value it last heard, and as new the latest"
  )
  func valueHearsOldAsLastHeard() async {
    let progress = ObservableValue(0)
    var heard: [(old: Int, new: Int)] = []
    let subscription = progress.observe(delivering: .latest) { heard.append(($0, $1)) }

    assignAll(1...500, to: progress)
    await waitForDeliveries()
    assignAll(501...900, to: progress)
    await waitForDeliveries()
    progress.set(901)

    // Alone on the main actor it hears (0, 500), (500, 900), (900, 901);
    // each job other tests queue for it may keep a value apart from the
    // next, so the bound is only that values were coalesced.
    #expect(heard.first?.old == 0 && heard.last?.new == 901)
    #expect(heard.map(\.new).contains(500) && heard.map(\.new).contains(900))
    #expect(zip(heard, heard.dropFirst()).allSatisfy { $0.new == $1.old && $0.new < $1.new })
    #expect(heard.count <= 901 / 4, "heard \(heard.count) changes of 901")
    withExtendedLifetime(subscription) {}
  }

  @MainActor
  @Test(
    "Values of another event sent between two keep their place: what a subscription for the latest hears comes after every value sent before it to its actor"
  )
  func orderAcrossEventsIsKept() async {
    let coalesced = EventSender<Int>()
    let other = EventSender<Int>()
    var log: [String] = []
    let subscriptions = [
      coalesced.event.observe(delivering: .latest) { log.append("latest \($0)") },
      other.event.observe { log.append("other \($0)") },
    ]
    let sent = DispatchSemaphore(value: 0)
    Thread {
      // 1 to 3, then the other's 1 to 20, then 4: more than 8 jobs stand
      // between 3 and the end of the queue, so 3 keeps its place.
      for value in 1...3 { coalesced.send(value) }
      for value in 1...20 { other.send(value) }
      coalesced.send(4)
      // 5 to 7 with one of the other's between: 4 moves behind it, as 7.
      coalesced.send(5)
      other.send(21)
      for value in 6...7 { coalesced.send(value) }
      sent.signal()
    }.start()
    sent.wait()
    await waitForDeliveries()

    // Alone on the main actor, the log is "latest 3", "other 1" to "other
    // 21", "latest 7"; other tests' work for it may keep more values apart.
    let others = log.compactMap { $0.hasPrefix("other ") ? Int($0.dropFirst(6)) : nil }
    let latest = log.compactMap { $0.hasPrefix("latest ") ? Int($0.dropFirst(7)) : nil }
    #expect(others == Array(1...21))
    #expect(latest.contains(3) && latest.last == 7)
    #expect(zip(latest, latest.dropFirst()).allSatisfy { $0 < $1 })
    for (position, entry) in log.enumerated() where entry.hasPrefix("latest ") {
      let value = Int(entry.dropFirst(7))!
      // The last of the other's values sent before it.
      let sentBefore = value >= 6 ? 21 : value >= 4 ? 20 : 0
      if sentBefore > 0 {
        #expect(log.firstIndex(of: "other \(sentBefore)")! < position, "\(log)")
      }
    }
    withExtendedLifetime(subscriptions) {}
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test(
    "An actor busy while values are sent hears the last of them, with the actor form; they wait in one job whatever their number, or a few when other jobs come between",
    arguments: [1_000, 10_000])
  func actorHearsTheLatest(count: Int) async {
    let sender = EventSender<Int>()
    let viewer = Viewer()
    await viewer.follow(sender.event)
    // The actor's thread waits at the gate, so that it runs no handler.
    let gate = BlockingGate()
    DedicatedThreadExecutor.shared.hold(until: gate)
    await gate.waiter()
    await onNewThread {
      for value in 1...count { sender.send(value) }
    }
    let (waiting, others) = waitingJobs(of: sender.event.core.latestOnlyIfMade)
    gate.open()
    await waitForDeliveries()

    // One job, heard once, unless more than 8 other jobs came after it
    // while the values were sent: each other test's wait for every actor
    // queues one here too. Then a few, in order, the last value last.
    let heard = await viewer.heard
    #expect(heard.last == count && zip(heard, heard.dropFirst()).allSatisfy { $0 < $1 })
    #expect(heard.count == waiting, "\(heard.count) heard, \(waiting) waited")
    #expect(
      waiting >= 1 && waiting <= 1 + others / 8,
      "\(waiting) jobs waited for \(count) values, \(others) others")
    withExtendedLifetime(sender) {}
  }

  @Test(
    "A plain class's subscription, made where no actor is, hears the latest of what was sent while its handler ran"
  )
  func plainClassHearsTheLatest() async {
    let sender = EventSender<Int>()
    let view = PlainView()
    let gate = BlockingGate()
    view.onFirst = { gate.wait() }
    let subscription = sender.event.observe(view, delivering: .latest) { $0.show($1) }
    // The first value's handler waits at the gate while the rest are sent:
    // they wait for it, each replacing the one before.
    sender.send(0)
    await gate.waiter()
    await onNewThread {
      for value in 1...2_000 { sender.send(value) }
    }
    // Another test's wait may queue there too: one job, unless more than 8
    // of those came after it while the values were sent.
    let (waiting, others) = waitingJobs(of: sender.event.core.latestOnlyIfMade)
    gate.open()
    await waitForDeliveries()

    #expect(view.shown.first == 0 && view.shown.last == 2_000)
    #expect(zip(view.shown, view.shown.dropFirst()).allSatisfy { $0 < $1 })
    #expect(view.shown.count == 1 + waiting, "\(view.shown.count) shown, \(waiting) waited")
    #expect(waiting >= 1 && waiting <= 1 + others / 8, "\(waiting) jobs waited, \(others) others")
    withExtendedLifetime(subscription) {}
  }
}

/// An actor that hears an event's latest value, on a thread of its own
/// that a test can keep busy.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
private actor Viewer {
  private(set) var heard: [Int] = []
  private var subscription: EventSubscription?

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    DedicatedThreadExecutor.shared.asUnownedSerialExecutor()
  }

  func follow(_ event: Event<Int>) {
    subscription = event.observe(actor: self, delivering: .latest) { viewer, value in
      viewer.heard.append(value)
    }
  }
}

/// A class isolated to no actor, whose first value runs `onFirst`.
private final class PlainView: @unchecked Sendable {
  // @unchecked Sendable: `shown` is written only by the subscription's
  // handler, which runs one call at a time (D3), and read after
  // `waitForDeliveries()`; `onFirst` is set before subscribing.
  var shown: [Int] = []
  var onFirst: () -> Void = {}

  func show(_ value: Int) {
    if shown.isEmpty { onFirst() }
    shown.append(value)
  }
}
