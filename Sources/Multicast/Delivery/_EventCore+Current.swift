// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// The `end` of a job that delivers a current value to one new
/// subscription: no registration is numbered this high.
let _currentJobEnd = UInt64.max - 1

/// What a job that delivers a current value carries: the value, and the one
/// registration it is for.
struct _CurrentValue<Value> {
  let registration: _Registration
  let value: Value
}

extension _EventCore {
  /// Registers `handler` as ``subscribe(_:from:handler:)`` does, and
  /// delivers it first the value `current` makes, in the same critical
  /// section: before any value sent after it, and after none.
  @usableFromInline
  func subscribe(
    _ target: AnyObject?, from isolation: (any Actor)?, startingWith current: () -> Value,
    handler: _Handler
  ) -> EventSubscription {
    let registration = withoutActuallyEscaping(current) { current in
      register(target ?? self, from: isolation, handler: handler, startingWith: current) { _ in }
    }
    return EventSubscription(
      source: self, registration: registration,
      lifetime: target == nil ? .untilReleased : .whileTargetLives)
  }

  /// Registers `handler`, to run on `isolation`, for as long as `object`
  /// lives, and delivers it a first value, if there is one.
  ///
  /// The first value is the one `current` makes or, without it, the latest
  /// value sent, if the core replays it. `registered` runs in the critical
  /// section that makes the registration, before any delivery can reach it.
  ///
  /// The first value is made in the critical section that makes the
  /// registration, which is also the one that orders the sends: it is
  /// heard before any value sent after it, and no value sent before it is
  /// heard. It takes its place in the subscription's destination like a send:
  /// delivered before this returns when the caller runs there with nothing
  /// under way, otherwise queued behind what waits.
  func register(
    _ object: AnyObject, from isolation: (any Actor)?, handler: _Handler,
    startingWith current: (() -> Value)?, registered: (_Registration) -> Void
  ) -> _Registration {
    // The common case handles no `Value`.
    guard current != nil || replaysLatest else {
      return register(object, from: isolation, handler: handler) { registration, _ in
        registered(registration)
      }
    }
    var claimed: (destination: _Destination, job: _DeliveryJob)?
    var batch: [_DeliveryJob] = []
    var arrival = _DeliveryState.Arrival.none
    let registration = register(object, from: isolation, handler: handler) {
      registration, destinationIndex in
      registered(registration)
      guard let first = current?() ?? latest else { return }
      let destination = destinations[destinationIndex]
      let job = _DeliveryJob(
        self, payload: _CurrentValue(registration: registration, value: first),
        end: _currentJobEnd)
      arrival = destination.arrive({ job }, from: isolation, taking: &batch)
      claimed = (destination, job)
    }
    if let (destination, job) = claimed {
      switch arrival {
      case .deliverDirectly:
        deliver(job, at: destination)
        job.finish()
        destination.deliverQueued(&batch)
      case .deliverBatch:
        destination.deliverQueued(&batch)
      case .scheduleDrain:
        destination.scheduleDrain()
      case .none:
        break
      }
    }
    return registration
  }

  /// Delivers a current value to the one registration it is for, if it is
  /// still registered, on `destination`, its destination.
  func deliverCurrent(_ job: _DeliveryJob, at destination: _Destination) {
    // Only this core makes its jobs, and those that end here carry this.
    let current = job.payload as! _CurrentValue<Value>
    var cursor = Optional(storage.beginBroadcast(of: current.registration))
    _ = withUnsafePointer(to: current.value) {
      walk(
        $0, from: &cursor, end: current.registration.sequence + 1, destination.key, noDestination)
    }
  }
}
