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
  public func onMainActor(
    isolation: isolated (any Actor)? = #isolation,
    _ body: @escaping @MainActor @Sendable (Observer) -> Void
  ) {
    _Destination.main.send(
      _DeliveryJob(self, payload: _MainActorDelivery(body: body), end: storage.nextSequence),
      from: isolation)
  }
}

extension MulticastDelegate where Observer: Sendable {
  /// Broadcasts to observers that live on another actor, such as a global
  /// actor of your own, from any isolation.
  ///
  /// Mark `body` with the observers' actor. The broadcast is queued, and the
  /// queue is delivered on that actor, in the order the broadcasts were made,
  /// whatever the priorities of the tasks that made them:
  ///
  /// ```swift
  /// @globalActor actor Indexer {
  ///   static let shared = Indexer()
  /// }
  ///
  /// @Indexer protocol IndexObserver: AnyObject, Sendable {
  ///   func indexDidAdd(_ document: String)
  /// }
  ///
  /// final class Library: Sendable {
  ///   let observers = MulticastDelegate<any IndexObserver>()
  ///
  ///   func add(_ document: String) {
  ///     observers.onActor { @Indexer in $0.indexDidAdd(document) }
  ///   }
  /// }
  /// ```
  ///
  /// The broadcast is always queued, even when made on the body's actor:
  /// only an `await` can run a function that carries its actor, so no
  /// synchronous form can exist without a newer runtime than this package
  /// needs. On the main actor, ``onMainActor(isolation:_:)`` delivers at
  /// once; broadcasts made with it and with this method are two queues,
  /// each in order, but not in order with each other.
  ///
  /// A queued broadcast reaches the observers registered when it was made,
  /// minus those removed or released before their turn; it keeps none of
  /// them alive while it waits, and holds each only while `body` runs for
  /// it. It keeps the multicast delegate alive, so a broadcast made just
  /// before its subject goes away is still delivered. A body not isolated to
  /// any actor is delivered the same way, in order, on no actor.
  ///
  /// - Parameter body: What to do with each observer, isolated to the
  ///   observers' actor.
  /// - Complexity: O(1) to queue, plus the number of actors broadcast to
  ///   before; O(n log n) to deliver, where n is the number of
  ///   registrations. One allocation per broadcast, `body`'s context, and a
  ///   task when the queue was idle.
  public func onActor(_ body: @escaping @isolated(any) @Sendable (Observer) -> Void) {
    _Destination.of(body.isolation).enqueue(
      _DeliveryJob(async: self, payload: _ActorDelivery(body: body), end: storage.nextSequence))
  }
}

extension MulticastDelegate: _DeliverySource {
  /// Delivers a broadcast that ``onMainActor(isolation:_:)`` queued, on the
  /// main actor.
  func deliver(_ job: _DeliveryJob, at destination: _Destination) {
    // Only `onMainActor` queues such jobs, with this payload, on the main
    // actor's destination.
    let delivery = job.payload as! _MainActorDelivery<Observer>
    // nonisolated(unsafe): that method exists only where `Observer` is
    // `Sendable`, and so is this multicast delegate; the conformance cannot
    // say so (it cannot depend on `Sendable`). The actor delivery tests
    // broadcast from many tasks and threads under ThreadSanitizer.
    nonisolated(unsafe) let delegate = self
    MainActor.assumeIsolated {
      delegate.storage.forEach(registeredBefore: job.end) { object, witnessTable in
        _ObserverLayout.withObserver(object, witnessTable) { delivery.body($0) }
      }
    }
  }

  /// A queued broadcast is never dropped: the main actor lives for the
  /// whole process.
  func drop(_ job: _DeliveryJob, at destination: _Destination) {}
}

extension MulticastDelegate: _AsyncDeliverySource {
  /// Delivers a broadcast that ``onActor(_:)`` queued, on its body's actor.
  ///
  /// Each observer is read under the lock just before its call and held only
  /// during it: the body is awaited, and no lock or buffer is held across an
  /// await.
  func deliver(
    _ job: _DeliveryJob, at destination: _Destination, on actor: isolated (any Actor)?
  ) async {
    // Only `onActor` queues such jobs, with this payload.
    let delivery = job.payload as! _ActorDelivery<Observer>
    await forEachLive(registeredBefore: job.end) { observer in
      // nonisolated(unsafe): that method exists only where `Observer` is
      // `Sendable`; the conformance cannot say so (it cannot depend on
      // `Sendable`). The actor delivery tests broadcast from many tasks.
      nonisolated(unsafe) let observer = observer
      await delivery.body(observer)
    }
  }
}
