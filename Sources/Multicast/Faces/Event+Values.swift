// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What keeps a stream's subscription alive: only the stream's termination
/// handler holds it, so the subscription dies when the stream ends.
private final class StreamAnchor: Sendable {}

extension Event where Value: Sendable {
  /// The values sent from now on, as an asynchronous sequence that buffers
  /// every value until it is read.
  ///
  /// Each access makes a new stream with its own subscription, which lasts
  /// until the stream is released or its reading task is cancelled; the
  /// event notices at its next send. A loop that breaks out of a stream kept
  /// in a variable leaves it subscribed, buffering, until the variable goes.
  ///
  /// ```swift
  /// for await count in metronome.ticks.values {
  ///   print(count)
  /// }
  /// ```
  ///
  /// The stream subscribes when it is made, not when it is first read. To
  /// read it in another task, make it first, so that nothing sent before the
  /// task runs is lost:
  ///
  /// ```swift
  /// let counts = metronome.ticks.values  // subscribed from here on
  /// Task { for await count in counts { print(count) } }
  /// metronome.beat(1)  // buffered until the task reads it
  /// ```
  ///
  /// Not `Task { for await count in metronome.ticks.values { ... } }` followed
  /// by a send: the task subscribes only when it runs, perhaps after the send.
  public var values: AsyncStream<Value> { values(bufferingPolicy: .unbounded) }

  /// The values sent from now on, as an asynchronous sequence with the given
  /// buffering policy.
  ///
  /// - Parameter bufferingPolicy: What to keep when values arrive faster than
  ///   they are read: `.unbounded` keeps all, `.bufferingNewest(n)` the
  ///   latest n, `.bufferingOldest(n)` the first n.
  /// - Returns: A stream with its own subscription, which ends when the
  ///   stream ends or its reading task is cancelled.
  public func values(
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy
  ) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Value.self, bufferingPolicy: bufferingPolicy)
    let anchor = StreamAnchor()
    // The continuation may be called anywhere, so the stream subscribes as
    // code isolated to no actor does: each send yields where it runs.
    _ = core.register(
      anchor, from: nil,
      handler: .value { value in continuation.yield(_EventCore<Value>.value(at: value)) })
    continuation.onTermination = { _ in withExtendedLifetime(anchor) {} }
    return stream
  }
}
