// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import CHeapStatistics
import Foundation
import Multicast
import Synchronization

// A download reports progress faster than a main-actor view redraws: what
// the view hears with each delivery policy, side by side.

/// Values assigned, and the work a redraw does.
let lagValues = 1_000_000
let redrawWork = Duration.microseconds(4)

/// The largest heap seen by anyone who samples it.
final class HeapPeak: Sendable {
  private let peak = Atomic<Int64>(0)

  func sample() {
    let now = heap_bytes_in_use()
    var seen = peak.load(ordering: .relaxed)
    while now > seen {
      let (exchanged, original) = peak.compareExchange(
        expected: seen, desired: now, ordering: .relaxed)
      if exchanged { return }
      seen = original
    }
  }

  var value: Int64 { peak.load(ordering: .relaxed) }
}

/// Whether the main-actor heartbeat goes on.
@MainActor
final class Beating {
  var isOn = true
}

/// What one run measured.
struct LagRun {
  var producing: Duration
  var afterProducer: Duration
  var calls: Int
  var heapGrowth: Int64
  var longestGap: Duration
  var lastShown: Int
}

/// How the view hears the values.
enum LagListener {
  /// A subscription with a delivery policy.
  case observing(DeliveryPolicy)
  /// A main-actor task reading the changes' stream, which keeps only the
  /// newest, and pausing for `interval` after each redraw: at most one
  /// redraw an interval, as a display's frames allow.
  case pacedStream(Duration)
}

/// The pause of the paced stream: one frame at 60 Hz.
let framePause = Duration.milliseconds(16)

/// A detached task assigns `lagValues` values while a main-actor view
/// hears them as `listener` says, redrawing for `redrawWork` each time; a
/// main-actor heartbeat measures the longest the main actor was held at once.
@MainActor
func runLag(_ listener: LagListener) async -> LagRun {
  let progress = ObservableValue(0)
  let heap = HeapPeak()
  let baseline = heap_bytes_in_use()
  heap.sample()
  var calls = 0
  var lastShown = 0
  var shownAt = clock.now
  let (shownLast, shown) = AsyncStream<Void>.makeStream()
  let redraw = { (new: Int) in
    calls += 1
    spin(for: redrawWork)
    lastShown = new
    if new == lagValues {
      shownAt = clock.now
      shown.yield()
    }
  }
  var subscription: EventSubscription?
  var reading: Task<Void, Never>?
  switch listener {
  case .observing(let policy):
    subscription = progress.observe(delivering: policy) { _, new in redraw(new) }
  case .pacedStream(let pause):
    // Made here, before the producer starts: a stream subscribes when made.
    let changes = progress.changes.values(bufferingPolicy: .bufferingNewest(1))
    reading = Task { @MainActor in
      for await change in changes {
        redraw(change.new)
        if change.new == lagValues { return }
        try? await Task.sleep(for: pause)
      }
    }
  }
  var longestGap = Duration.zero
  let beating = Beating()
  let heartbeat = Task { @MainActor in
    var last = clock.now
    while beating.isOn {
      await Task.yield()
      let now = clock.now
      longestGap = max(longestGap, now - last)
      last = now
      heap.sample()
    }
  }
  let producerStart = clock.now
  let producerEnd = await Task.detached {
    for value in 1...lagValues {
      progress.set(value)
      if value % 4_096 == 0 { heap.sample() }
    }
    return clock.now
  }.value
  for await _ in shownLast { break }
  beating.isOn = false
  await heartbeat.value
  await reading?.value
  withExtendedLifetime(subscription) {}
  return LagRun(
    producing: producerEnd - producerStart, afterProducer: shownAt - producerEnd, calls: calls,
    heapGrowth: heap.value - baseline, longestGap: longestGap, lastShown: lastShown)
}

func runLaggingObserver() async {
  var rows = [
    [
      "policy", "producer took", "last value shown after its end", "handler calls",
      "peak heap growth", "longest main-actor hold",
    ]
  ]
  let listeners: [(String, LagListener)] = [
    ("every value", .observing(.everyValue)), ("latest", .observing(.latest)),
    ("newest 1, paced", .pacedStream(framePause)),
  ]
  for (name, listener) in listeners {
    let run = await runLag(listener)
    rows.append([
      name + (run.lastShown == lagValues ? "" : " (FAILED: last shown \(run.lastShown))"),
      readable(run.producing), readable(run.afterProducer),
      "\(run.calls) (\(String(format: "%.3f", Double(run.calls) * 100 / Double(lagValues)))%)",
      readable(bytes: run.heapGrowth), readable(run.longestGap),
    ])
  }
  print(
    "A detached task assigns an ObservableValue<Int> \(lagValues) times; a main-actor view"
      + " observes it, each redraw \(readable(redrawWork)); the paced view reads"
      + " values(bufferingPolicy: .bufferingNewest(1)) and pauses \(readable(framePause))"
      + " after each redraw")
  printTable(rows)
}
