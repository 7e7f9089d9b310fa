// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Synchronization

let clock = ContinuousClock()

/// Nanoseconds per call of `body`.
///
/// The median of up to `rounds` batches, each grown until it takes at least
/// `least`, so that reading the clock costs nothing visible beside a call of
/// 100 ns. Stops after `budget`, so that a call of seconds is timed once
/// rather than `rounds` times.
func nanosecondsPerCall(
  rounds: Int = 5, least: Duration = .milliseconds(20), budget: Duration = .seconds(3),
  _ body: (Int) -> Void
) -> Double {
  let start = clock.now
  var batch = 1
  var results: [Double] = []
  var value = 0
  while results.count < rounds, results.isEmpty || clock.now - start < budget {
    let batchStart = clock.now
    for _ in 0..<batch {
      body(value)
      value &+= 1
    }
    let took = clock.now - batchStart
    if took < least {
      batch *= 2
    } else {
      results.append(nanoseconds(took) / Double(batch))
    }
  }
  return median(results)
}

/// How long `body` takes, once.
func time(_ body: () throws -> Void) rethrows -> Duration {
  let start = clock.now
  try body()
  return clock.now - start
}

/// Keeps the calling thread busy for `duration`, as a handler doing work.
func spin(for duration: Duration) {
  let end = clock.now + duration
  while clock.now < end {}
}

/// Spins until `flag` is set or `limit` has passed; whether it was set.
@discardableResult
func wait(for flag: borrowing Atomic<Bool>, atMost limit: Duration) -> Bool {
  let end = clock.now + limit
  while !flag.load(ordering: .acquiring) {
    if clock.now > end { return false }
  }
  return true
}

func nanoseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// A duration as a person reads it: ns, µs, ms or s.
func readable(nanoseconds value: Double) -> String {
  switch value {
  case ..<1e3: String(format: "%.0f ns", value)
  case ..<1e6: String(format: "%.1f µs", value / 1e3)
  case ..<1e9: String(format: "%.1f ms", value / 1e6)
  default: String(format: "%.2f s", value / 1e9)
  }
}

func readable(_ duration: Duration) -> String { readable(nanoseconds: nanoseconds(duration)) }

/// Bytes as a person reads them.
func readable(bytes: Int64) -> String {
  abs(bytes) < 1 << 20
    ? String(format: "%.1f KB", Double(bytes) / 1024)
    : String(format: "%.1f MB", Double(bytes) / 1_048_576)
}

/// Prints rows as a table, each column as wide as its widest cell.
func printTable(_ rows: [[String]]) {
  var widths: [Int] = []
  for row in rows {
    for (column, cell) in row.enumerated() {
      if column == widths.count { widths.append(0) }
      widths[column] = max(widths[column], cell.count)
    }
  }
  for row in rows {
    let cells = row.enumerated().map { column, cell in
      column == 0
        ? cell.padding(toLength: widths[0], withPad: " ", startingAt: 0)
        : String(repeating: " ", count: widths[column] - cell.count) + cell
    }
    print(cells.joined(separator: "  "))
  }
}
