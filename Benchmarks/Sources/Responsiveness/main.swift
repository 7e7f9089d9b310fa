// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// How long a stream of values holds the main actor: one thread sends
// 1,000,000 values to a main-actor subscription while another main-actor
// job ticks (each tick yields the main actor and records the time). Prints
// the longest gap between two ticks while the values were delivered, and how
// long the delivery took in all.
//
//   swift run -c release Responsiveness [VALUES]

import Foundation
import Multicast

@MainActor
final class Receiver {
  private(set) var count = 0
  private var subscription: EventSubscription?
  private var finished: CheckedContinuation<Void, Never>?
  let total: Int

  init(_ event: Event<Int>, total: Int) {
    self.total = total
    subscription = event.observe { [unowned self] _ in
      count += 1
      if count == total { finished?.resume() }
    }
  }

  func waitForAll() async {
    if count == total { return }
    await withCheckedContinuation { finished = $0 }
  }
}

@MainActor
func measure(values: Int) async -> (longestGap: Double, total: Double) {
  let sender = EventSender<Int>()
  let receiver = Receiver(sender.event, total: values)
  let clock = ContinuousClock()
  let start = clock.now
  let ticker = Task { @MainActor in
    var last = clock.now
    var longest = Duration.zero
    while receiver.count < values {
      await Task.yield()
      let now = clock.now
      longest = max(longest, now - last)
      last = now
    }
    return longest
  }
  Thread.detachNewThread {
    for value in 0..<values { sender.send(value) }
  }
  await receiver.waitForAll()
  let total = clock.now - start
  let longest = await ticker.value
  return (seconds(longest) * 1000, seconds(total) * 1000)
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let values = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 1_000_000
let result = await measure(values: values)
print(
  "\(values) values to a main-actor subscription from a thread: longest gap between main-actor ticks \(String(format: "%.2f", result.longestGap)) ms, delivered in \(String(format: "%.0f", result.total)) ms"
)
