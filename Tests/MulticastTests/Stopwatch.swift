// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation

/// Monotonic time in nanoseconds.
///
/// `DispatchTime`, not `ContinuousClock`, which Apple platforms have only
/// from macOS 13 and iOS 16.
func nanosecondsNow() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// How long `body` takes, in nanoseconds.
func nanoseconds(_ body: () -> Void) -> UInt64 {
  let start = nanosecondsNow()
  body()
  return nanosecondsNow() - start
}

/// Spins for `nanoseconds`: a handler that takes time, the way work does,
/// without giving up its thread.
func busy(nanoseconds: UInt64) {
  let end = nanosecondsNow() + nanoseconds
  while nanosecondsNow() < end {}
}

/// The best time, in nanoseconds, that each of `bodies` took to run
/// `batch` times, over `repetitions` rounds that run them side by side, so
/// that the machine's load weighs on each alike.
func bestTimes(of bodies: [() -> Void], batch: Int = 200, repetitions: Int = 7) -> [UInt64] {
  var best = Array(repeating: UInt64.max, count: bodies.count)
  for _ in 0..<repetitions {
    for (index, body) in bodies.enumerated() {
      best[index] = min(best[index], nanoseconds { for _ in 0..<batch { body() } })
    }
  }
  return best
}

/// How many times `times[0]` each of `times` is, to one decimal.
func ratios(_ times: [UInt64]) -> [Double] {
  times.map { (Double($0) / Double(times[0]) * 10).rounded() / 10 }
}
