// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension MulticastDelegate where Observer: Sendable {
  /// Broadcasts to observers that live on the main actor, from any isolation:
  /// an actor, a task, a thread, or the main actor itself.
  ///
  /// Called on the main actor, this broadcasts before it returns, as
  /// ``callAsFunction(_:)`` does, after delivering any broadcasts still
  /// queued. Called elsewhere, it queues the
  /// broadcast and returns at once; the queue is delivered on the main actor,
  /// in the order the broadcasts were made, whatever the priorities of the
  /// tasks that made them.
  ///
  /// ```swift
  /// @MainActor protocol DownloadObserver: AnyObject {
  ///   func downloadDidProgress(_ fraction: Double)
  /// }
  ///
  /// actor Download {
  ///   let observers = MulticastDelegate<any DownloadObserver>()
  ///
  ///   func received(_ fraction: Double) {
  ///     observers.onMainActor { $0.downloadDidProgress(fraction) }
  ///   }
  /// }
  /// ```
  ///
  /// A queued broadcast reaches the observers registered when it was made,
  /// minus those removed or released before their turn; it keeps none of
  /// them alive while it waits. It keeps the multicast delegate alive, so a
  /// broadcast made just before its subject goes away is still delivered.
  ///
  /// A broadcast made on the main actor while the queue is being delivered,
  /// by an observer for example, goes after the broadcasts already queued.
  ///
  /// - Parameters:
  ///   - isolation: The caller's isolation, which tells whether it runs on
  ///     the main actor; leave the default.
  ///   - body: What to do with each observer, on the main actor.
  /// - Complexity: O(1) to queue; O(n) to deliver, where n is the number of
  ///   registrations. One allocation per broadcast, `body`'s context, and a
  ///   task when the queue was idle; one hop to the main actor per batch.
  @inlinable
  public func onMainActor(
    isolation: isolated (any Actor)? = #isolation,
    _ body: @escaping @MainActor @Sendable (Observer) -> Void
  ) {
    typealias Job = _MainActorDelivery<Observer>
    let (end, queue) = storage.mainActorQueue(of: Job.self)
    let isOnMainActor = isolation.map { $0 === MainActor.shared } ?? false
    var batch: [Job] = []
    switch queue.append(Job(end: end, body: body), isOnActor: isOnMainActor, taking: &batch) {
    case .deliver:
      MainActor.assumeIsolated { deliver(&batch, from: queue) }
    case .schedule:
      Task { @MainActor in
        var batch: [Job] = []
        if queue.startDrain(taking: &batch) { deliver(&batch, from: queue) }
      }
    case .nothing:
      break
    }
  }

  /// Delivers `batch`, then every batch queued behind it, on the main actor.
  @MainActor
  @inlinable
  func deliver(
    _ batch: inout [_MainActorDelivery<Observer>],
    from queue: _DeliveryQueue<_MainActorDelivery<Observer>>
  ) {
    repeat {
      for job in batch {
        storage.forEach(registeredBefore: job.end) { object, witnessTable in
          _ObserverLayout.withObserver(object, witnessTable) { job.body($0) }
        }
      }
    } while queue.next(&batch)
  }
}
