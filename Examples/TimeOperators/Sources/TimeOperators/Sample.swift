// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import AsyncAlgorithms

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// The latest element of each interval, at its end.
  ///
  /// A burst within one interval is heard once, as its last element; an
  /// interval with no element is silent. Built from swift-async-algorithms'
  /// chunks by timer:
  ///
  /// ```swift
  /// for await level in meter.values.sample(every: .milliseconds(100), clock: .continuous) {
  ///   needle.show(level)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - interval: How often to sample.
  ///   - clock: The clock that measures the interval.
  /// - Returns: The sampled sequence.
  public func sample<C: Clock>(
    every interval: C.Duration, clock: C
  ) -> AsyncCompactMapSequence<
    AsyncChunksOfCountOrSignalSequence<Self, [Element], AsyncTimerSequence<C>>, Element
  > {
    chunked(by: AsyncTimerSequence(interval: interval, clock: clock)).compactMap(\.last)
  }
}
