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
  /// print("done")  // once the metronome's sender is released
  /// ```
  ///
  /// # When the stream ends
  ///
  /// The stream ends, and a `for await` loop over it with it, once nothing
  /// can send to the event again: when its ``EventSender`` is released (or,
  /// for ``ObservableValue/changes``, the ``ObservableValue``), even while an
  /// ``Event`` taken from it is still held. The loop first reads every value
  /// sent before, in order. A derived event's stream (``map(_:)``,
  /// ``filter(_:)``, ``compactMap(_:)``) ends when the event it derives from
  /// ends. A stream made after that ends at once, after the latest value if
  /// the sender replays it.
  ///
  /// A task whose loop captures a view model keeps that model alive for as
  /// long as the loop waits. The loop ends, and lets the model go, when the
  /// model's source goes; to end it sooner, cancel the task:
  ///
  /// ```swift
  /// @MainActor final class TickViewModel {
  ///   private(set) var count = 0
  ///   private var reading: Task<Void, Never>?
  ///
  ///   init(ticks: Event<Int>) {
  ///     let values = ticks.values
  ///     reading = Task {
  ///       for await count in values { self.count = count }
  ///     }  // ends when the metronome goes, releasing the model
  ///   }
  ///
  ///   func stop() { reading?.cancel() }  // or sooner
  /// }
  /// ```
  ///
  /// A loop whose body keeps the sender itself (its owner) alive never sees
  /// it released: cancel its task.
  ///
  /// # Reading in another task
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
  /// The stream ends as ``values`` does: once nothing can send to the event
  /// again, after every value sent before.
  ///
  /// - Parameter bufferingPolicy: What to keep when values arrive faster than
  ///   they are read: `.unbounded` keeps all, `.bufferingNewest(n)` the
  ///   latest n, `.bufferingOldest(n)` the first n.
  /// - Returns: A stream with its own subscription, which ends when the
  ///   stream ends or its reading task is cancelled, and which ends when
  ///   the event's sender, or the event it derives from, is released.
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
    // Finished in the same queue as the values, after them.
    let following = core.followStream(ObjectIdentifier(anchor)) { continuation.finish() }
    continuation.onTermination = { _ in withExtendedLifetime(anchor) { following.unfollow() } }
    return stream
  }
}
