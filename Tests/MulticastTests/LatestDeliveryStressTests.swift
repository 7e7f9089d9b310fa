// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Multicast
import Testing

/// How many threads race, and how many steps each makes.
///
/// They send to three subscriptions on one isolation: an event's and an
/// observable value's that hear only the latest, and another event's that
/// hears every value. Producer `p`'s `k`th value is
/// `k * producers + p`; each step assigns the value, sends the coalesced
/// event, then the other event.
private let producers = 4
private let stepsEach = 3_000
/// Sent in order by one thread once the producers are done, `-finalBurst`
/// to -1: the last, -1, must arrive.
private let finalBurst = 100

/// One delivery, in the order the isolation ran them.
private enum Heard: Equatable {
  case latest(Int)
  case change(old: Int, new: Int)
  case every(Int)
}

/// What went wrong in `log`, checked against what the producers sent.
///
/// - The event for every value hears each, in each producer's order.
/// - Never older than heard: each producer's values reach a subscription
///   for the latest in the order sent, each at most once.
/// - Never ahead of what was sent before it from the same place to the same
///   isolation: a coalesced value of step `k` comes after the other event's
///   value of step `k - 1` from the same producer.
/// - The latest always arrives: the last value heard is -1.
/// - A value's observer hears as `old` the value it last heard.
private func problems(in log: [Heard]) -> [String] {
  var found: [String] = []
  func note(_ problem: String) { if found.count < 8 { found.append(problem) } }
  let origin = { (value: Int) in (producer: value % producers, step: value / producers) }
  // Where each producer's every-value delivery of each step is.
  var everyAt = [[Int]](repeating: [], count: producers)
  // The final burst counts as one more producer, from -finalBurst.
  var lastLatest = [Int](repeating: -1, count: producers) + [-finalBurst - 1]
  var lastChange = [Int](repeating: -1, count: producers) + [-finalBurst - 1]
  var heardNew = 0
  for (position, entry) in log.enumerated() {
    switch entry {
    case .every(let value):
      let (producer, step) = origin(value)
      if step != everyAt[producer].count {
        note("every value: step \(step) of producer \(producer) came \(everyAt[producer].count)th")
      }
      everyAt[producer].append(position)
    case .latest(let value), .change(_, let value):
      let (producer, step) = value < 0 ? (producers, value) : origin(value)
      let isChange = if case .change = entry { true } else { false }
      let before = isChange ? lastChange[producer] : lastLatest[producer]
      if step <= before {
        note("\(entry): step \(step) of producer \(producer) after step \(before)")
      }
      if isChange { lastChange[producer] = step } else { lastLatest[producer] = step }
      // The value of every step before was sent before this one.
      if producer < producers && step > 0 && everyAt[producer].count < step {
        note("\(entry) at \(position) came before producer \(producer)'s value of step \(step - 1)")
      }
    }
    if case .change(let old, let new) = entry {
      if old != heardNew { note("change \(old) -> \(new): last heard \(heardNew)") }
      heardNew = new
    }
  }
  for producer in 0..<producers where everyAt[producer].count != stepsEach {
    note("every value: producer \(producer)'s \(everyAt[producer].count) of \(stepsEach) heard")
  }
  let latest = log.compactMap { if case .latest(let value) = $0 { value } else { nil } }
  let changes = log.compactMap { if case .change(_, let new) = $0 { new } else { nil } }
  if latest.last != -1 { note("the latest event value heard last is \(latest.last ?? 0)") }
  if changes.last != -1 { note("the latest change heard last is to \(changes.last ?? 0)") }
  return found
}

/// What the producers send to.
private struct RacingSubjects: Sendable {
  let coalesced = EventSender<Int>()
  let other = EventSender<Int>()
  let value = ObservableValue(0)

  /// Runs the producers, each on a thread of its own.
  func race() async {
    await withTaskGroup(of: Void.self) { group in
      for producer in 0..<producers {
        group.addTask {
          await onNewThread {
            for step in 0..<stepsEach {
              let sent = step * producers + producer
              value.set(sent)
              coalesced.send(sent)
              other.send(sent)
            }
          }
        }
      }
    }
  }

  /// Sends the final burst.
  func finish() {
    for sent in -finalBurst ... -1 {
      value.set(sent)
      coalesced.send(sent)
    }
  }
}

/// An actor that hears the three subscriptions.
private actor LatestListener {
  private(set) var log: [Heard] = []
  private var subscriptions: [EventSubscription] = []

  func listen(to subjects: RacingSubjects) {
    subscriptions = [
      subjects.coalesced.event.observe(actor: self, delivering: .latest) { listener, value in
        listener.log.append(.latest(value))
      },
      subjects.value.observe(actor: self, delivering: .latest) { listener, old, new in
        listener.log.append(.change(old: old, new: new))
      },
      subjects.other.event.observe(actor: self) { listener, value in
        listener.log.append(.every(value))
      },
    ]
  }
}

@Suite("Subscriptions for the latest under racing senders")
struct LatestDeliveryStressTests {
  @MainActor
  @Test(
    "On the main actor, racing producers' values reach subscriptions for the latest never older than heard, never ahead of what the same producer sent before, old as last heard, and the last value last"
  )
  func mainActor() async {
    let subjects = RacingSubjects()
    var log: [Heard] = []
    let subscriptions = [
      subjects.coalesced.event.observe(delivering: .latest) { log.append(.latest($0)) },
      subjects.value.observe(delivering: .latest) { log.append(.change(old: $0, new: $1)) },
      subjects.other.event.observe { log.append(.every($0)) },
    ]
    await subjects.race()
    // With the main actor busy, the burst waits in one job per subscription.
    let finished = DispatchSemaphore(value: 0)
    Thread {
      subjects.finish()
      finished.signal()
    }.start()
    finished.wait()
    await waitForDeliveries()
    let found = problems(in: log)
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    withExtendedLifetime(subscriptions) {}
  }

  @Test(
    "On an actor, racing producers' values reach subscriptions for the latest never older than heard, never ahead of what the same producer sent before, old as last heard, and the last value last"
  )
  func actor() async {
    let subjects = RacingSubjects()
    let listener = LatestListener()
    await listener.listen(to: subjects)
    await subjects.race()
    await onNewThread { subjects.finish() }
    await waitForDeliveries()
    let found = problems(in: await listener.log)
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }
}
