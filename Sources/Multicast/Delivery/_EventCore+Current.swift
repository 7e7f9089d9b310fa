// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// The `end` of a job that delivers a current value to one new
/// subscription: no registration is numbered this high.
let _currentJobEnd = UInt64.max - 1

/// What a job that delivers a current value carries.
struct _CurrentValue<Value> {
  let registration: _Registration
  let value: Value
}

extension _EventCore {
  /// Registers `handler` as ``subscribe(_:from:handler:)`` does; it hears
  /// first the value `current` makes in the same section.
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
  /// lives, with a first value, if there is one.
  ///
  /// The first value is what `current` makes or, without it, the latest
  /// value, if the core replays one. `registered` runs in the section that
  /// makes the registration.
  ///
  /// That section also orders the sends, so the first value comes before
  /// every value sent after, and arrives at the destination like a send (D4).
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
        #if MULTICAST_INTERNAL_CHECKS
        destination.checkDelivering()
        #endif
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

  /// Delivers a current value to its one registration, if still registered.
  func deliverCurrent(_ job: _DeliveryJob, at destination: _Destination) {
    // Only this core makes its jobs; those that end here carry this.
    let current = job.payload as! _CurrentValue<Value>
    var cursor = Optional(storage.beginBroadcast(of: current.registration))
    _ = withUnsafePointer(to: current.value) {
      walk(
        $0, from: &cursor, end: current.registration.sequence + 1, destination.key, noDestination)
    }
  }
}
