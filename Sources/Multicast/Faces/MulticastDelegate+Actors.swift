// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension MulticastDelegate where Observer: Sendable {
  /// Broadcasts to observers that live on the main actor, from any isolation:
  /// an actor, a task, a thread, or the main actor itself.
  ///
  /// Called on the main actor, this broadcasts before it returns, as
  /// ``callAsFunction(_:)`` does, after delivering anything still queued for
  /// the main actor; nonisolated code that runs on the main actor counts (the
  /// runtime is asked). Called elsewhere, it queues the broadcast and returns
  /// at once; the main actor's queue is delivered there, in the order its
  /// work was queued, through any subject and any face, whatever the
  /// priorities of the tasks that queued it.
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
  ///   task when the queue was idle; one hop to the main actor per batch of
  ///   about half a millisecond of work.
  @inlinable
  public func onMainActor(
    isolation: isolated (any Actor)? = #isolation,
    _ body: @escaping @MainActor @Sendable (Observer) -> Void
  ) {
    // The body is boxed where `Observer` is known, so that no generic
    // metadata is looked up per broadcast.
    queueForMainActor(_Value(value: _QueuedBroadcast(mainActor: body)), from: isolation)
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
  /// the compiler lets a function that carries its actor run only through an
  /// `await`. It waits in the one queue of that actor, in order with
  /// everything else queued there (``onMainActor(isolation:_:)``'s
  /// broadcasts, events, values), and anything sent later on that actor
  /// delivers it first.
  ///
  /// A queued broadcast reaches the observers registered when it was made,
  /// minus those removed or released before their turn; it keeps none of
  /// them alive while it waits. It keeps the multicast delegate alive, so a
  /// broadcast made just before its subject goes away is still delivered. A
  /// body not isolated to any actor is delivered the same way, in order, on
  /// no actor.
  ///
  /// - Parameter body: What to do with each observer, isolated to the
  ///   observers' actor.
  /// - Complexity: O(1) to queue, on average; O(n) to deliver, where n is
  ///   the number of registrations. One allocation per broadcast, `body`'s context, and a
  ///   task when the queue was idle.
  @inlinable
  public func onActor(_ body: @escaping @isolated(any) @Sendable (Observer) -> Void) {
    queue(_Value(value: _QueuedBroadcast(isolatedToAny: body)), for: body.isolation)
  }
}

extension MulticastDelegate {
  /// Queues `broadcast`, a ``_QueuedBroadcast`` made where `Observer` is
  /// known, for the main actor, or delivers it at once if `isolation` is the
  /// main actor.
  @usableFromInline
  func queueForMainActor(_ broadcast: any _Payload, from isolation: isolated (any Actor)?) {
    _Destination.main.send(
      _DeliveryJob(self, .broadcast(broadcast, end: storage.nextSequence)), from: isolation)
  }

  /// Queues `broadcast`, a ``_QueuedBroadcast``, for `actor`, or for no
  /// actor.
  @usableFromInline
  func queue(_ broadcast: any _Payload, for actor: (any Actor)?) {
    _Destination.of(actor).enqueue(
      _DeliveryJob(self, .broadcast(broadcast, end: storage.nextSequence)))
  }
}

extension MulticastDelegate: _DeliverySource {
  /// Delivers a run of broadcasts that ``onMainActor(isolation:_:)`` or
  /// ``onActor(_:)`` queued, in order, on the actor their bodies are
  /// isolated to.
  func deliver(_ jobs: UnsafeBufferPointer<_DeliveryJob>, at destination: _Destination) {
    deliverRun(self, jobs)
  }

  /// Delivers a run of queued broadcasts, each to the observers registered
  /// when it was made and not removed before their turn: one walk begins
  /// for the latest, and each job joins it for its own.
  @inlinable
  func deliverQueued(_ jobs: UnsafeBufferPointer<_DeliveryJob>) {
    var end: UInt64 = 0
    for job in jobs {
      if case .broadcast(_, let jobEnd) = job.kind { end = Swift.max(end, jobEnd) }
    }
    let run = storage.beginBroadcast(registeredBefore: end)
    defer { storage.endBroadcast(run) }
    for job in jobs {
      // A multicast delegate queues only broadcasts.
      guard case .broadcast(let broadcast, let end) = job.kind else { continue }
      let cursor = storage.beginBroadcast(alongside: run, registeredBefore: end)
      broadcast.lend { broadcast in
        // Only onMainActor and onActor queue a multicast delegate's jobs.
        let body = broadcast.assumingMemoryBound(to: _QueuedBroadcast<Observer>.self).pointee.body
        storage.forEach(from: cursor) { object, witnessTable in
          _ObserverLayout.withObserver(object, witnessTable) { body($0) }
        }
      }
    }
  }

  /// A broadcast for an actor that is gone has no one to reach.
  func drop(_ jobs: UnsafeBufferPointer<_DeliveryJob>, at destination: _Destination) {}
}
