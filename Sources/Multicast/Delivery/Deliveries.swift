// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Returns once everything queued before the call has been delivered: for the
/// caller's actor when it runs on one, or for every actor when it runs on
/// none.
///
/// Sends, assignments and broadcasts made on one actor for another are
/// queued, and delivered on that actor after the sender has moved on. Tests,
/// command-line tools and demos need to know when they have arrived:
///
/// ```swift
/// @MainActor @Test func viewHearsTheUpload() async {
///   let upload = Upload()                 // an actor with an event
///   let view = ProgressView(upload)       // subscribes on the main actor
///   await upload.run()                    // sends from the actor
///   await waitForDeliveries()             // what it sent has reached the view
///   #expect(view.shown == [0.5, 1.0])
/// }
/// ```
///
/// On the main actor this delivers what waits for it at once, before
/// returning; elsewhere it waits for each actor's queue to reach the point
/// where the call was made. Called where no actor is, it also waits for the
/// values that senders handed to a drain for subscriptions made where no
/// actor is, and for what those deliveries queue in turn (a derived event's
/// values), up to a chain eight deep.
///
/// Do not call it from a body that a queue is delivering (an
/// ``MulticastDelegate/onActor(_:)`` body awaiting it): the queue would wait
/// for itself.
///
/// - Parameter isolation: The caller's isolation; leave the default.
public func waitForDeliveries(isolation: isolated (any Actor)? = #isolation) async {
  if let isolation {
    await _Destination.of(isolation).waitForQueued(from: isolation)
  } else {
    // Deliveries may queue more on another queue (a derived event's values, a
    // handler's sends): passes until one finds every queue idle, at most eight
    // (other work may never let every queue rest).
    for _ in 0..<8 {
      var isSettled = true
      for destination in _Destination.all where !destination.isIdle {
        isSettled = false
        await destination.waitForQueued(from: nil)
      }
      if isSettled { return }
    }
  }
}

extension _Destination {
  /// Returns once the work queued here before the call has been delivered.
  func waitForQueued(from isolation: isolated (any Actor)?) async {
    if isCurrent(isolation) { deliverWaiting() }
    if isIdle { return }
    await withCheckedContinuation { continuation in
      enqueue(_DeliveryJob(_Checkpoint { continuation.resume() }, .wait))
    }
  }
}
