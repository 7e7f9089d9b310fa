// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// How long a stream of values holds the main actor. A thread sends VALUES
// values to one main-actor observer while another main-actor job ticks (each
// tick yields the main actor and records the time). Each way of sending runs
// ROUNDS times, side by side in one process; the medians are printed: the
// longest gap between two ticks while the values were delivered, and the
// values delivered per second.
//
//   swift run -c release Responsiveness [VALUES] [ROUNDS]
//
// The ways: an event's send; a multicast delegate's `onMainActor`; a task
// per value (`Task { @MainActor in ... }`, what code without the library
// writes); and the machine alone: a thread as busy as a sender, sending
// nothing, for the gaps the machine makes by itself.

import Foundation
import Multicast

@MainActor protocol Counting: AnyObject, Sendable {
  func count(_ value: Int)
}

/// The main-actor observer: counts what it hears, and says when it heard all.
@MainActor
final class Receiver: Counting {
  private(set) var received = 0
  private var finished: CheckedContinuation<Void, Never>?
  let total: Int

  init(total: Int) { self.total = total }

  func count(_ value: Int) {
    received += 1
    if received == total { finished?.resume() }
  }

  func waitForAll() async {
    if received == total { return }
    await withCheckedContinuation { finished = $0 }
  }
}

enum Way: String, CaseIterable {
  case event, onMainActor, taskPerValue = "task per value", alone = "machine alone"
}

/// A sender of `values` values to `receiver` the `way` says, on a thread of
/// its own; for `alone`, a thread that spins as long as a sender would.
@MainActor
func startSending(_ way: Way, values: Int, to receiver: Receiver) -> [AnyObject] {
  switch way {
  case .event:
    let sender = EventSender<Int>()
    let subscription = sender.event.observe { [unowned receiver] in receiver.count($0) }
    Thread.detachNewThread { for value in 0..<values { sender.send(value) } }
    return [subscription]
  case .onMainActor:
    let observers = MulticastDelegate<any Counting>()
    observers.addObserver(receiver)
    Thread.detachNewThread {
      for value in 0..<values { observers.onMainActor { $0.count(value) } }
    }
    return [observers]
  case .taskPerValue:
    Thread.detachNewThread {
      for value in 0..<values { Task { @MainActor in receiver.count(value) } }
    }
    return []
  case .alone:
    preconditionFailure("the machine alone sends nothing")
  }
}

@MainActor
func measure(
  _ way: Way, values: Int, spinning spinFor: Duration
) async -> (longestGap: Double, perSecond: Double, total: Duration) {
  let receiver = Receiver(total: way == .alone ? 0 : values)
  let clock = ContinuousClock()
  let start = clock.now
  let isDone = Flag()
  let ticker = Task { @MainActor in
    var last = clock.now
    var longest = Duration.zero
    while !isDone.isSet {
      await Task.yield()
      let now = clock.now
      longest = max(longest, now - last)
      last = now
    }
    return longest
  }
  var kept: [AnyObject] = []
  if way == .alone {
    // A thread spins as long as the event's stream took in this round.
    Thread.detachNewThread {
      let end = ContinuousClock.now + spinFor
      while ContinuousClock.now < end {}
      isDone.set()
    }
    while !isDone.isSet { await Task.yield() }
  } else {
    kept = startSending(way, values: values, to: receiver)
    await receiver.waitForAll()
    isDone.set()
  }
  let total = clock.now - start
  let longest = await ticker.value
  withExtendedLifetime(kept) {}
  return (seconds(longest) * 1000, Double(values) / seconds(total), total)
}

/// A flag set once, read from any thread.
final class Flag: @unchecked Sendable {
  // @unchecked Sendable: `value` is read and written only with `lock` held.
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let values = arguments.first ?? 1_000_000
let rounds = arguments.dropFirst().first ?? 3
var results: [Way: [(longestGap: Double, perSecond: Double, total: Duration)]] = [:]
for _ in 0..<rounds {
  var eventTook = Duration.milliseconds(300)
  for way in Way.allCases {
    let result = await measure(way, values: values, spinning: eventTook)
    if way == .event { eventTook = result.total }
    results[way, default: []].append(result)
  }
}
print("\(values) values from a thread to one main-actor observer; medians of \(rounds) rounds")
print("way".padding(toLength: 18, withPad: " ", startingAt: 0), "longest gap (ms)", "values/s")
for way in Way.allCases {
  let gap = median(results[way]!.map(\.longestGap))
  let rate =
    way == .alone ? "-" : String(format: "%.2f M", median(results[way]!.map(\.perSecond)) / 1e6)
  print(
    way.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0),
    String(format: "%16.2f", gap), rate)
}
