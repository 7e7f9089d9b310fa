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
  /// Registers `handler`, to run on `isolation`, for as long as `object`
  /// lives, with a first value, if there is one.
  ///
  /// The first value is the latest value, if there is one and the
  /// subscription starts with it or the core replays it. `registered` runs
  /// in the section that makes the registration.
  ///
  /// That section also orders the sends, so the first value comes before
  /// every value sent after, and arrives at the destination like a send (D4).
  func register(
    _ object: AnyObject, from isolation: (any Actor)?, handler: _Handler,
    startingWithLatest: Bool, registered: (_Registration) -> Void
  ) -> _Registration {
    // The common case handles no `Value`.
    guard startingWithLatest || replaysLatest else {
      return register(object, from: isolation, handler: handler) { registration, _, _, _ in
        registered(registration)
      }
    }
    var claimed: (destination: _Destination, job: _DeliveryJob)?
    var batch: [_DeliveryJob] = []
    var arrival = _DeliveryState.Arrival.none
    let registration = register(object, from: isolation, handler: handler) {
      registration, destinationIndex, guarded, latest in
      registered(registration)
      guard let first = latest else { return }
      let destination = guarded.destinations[destinationIndex]
      let job = _DeliveryJob(
        self, payload: _CurrentValue(registration: registration, value: first),
        end: _currentJobEnd)
      arrival = destination.arrive({ job }, from: isolation, taking: &batch)
      claimed = (destination, job)
    }
    if let (destination, job) = claimed {
      switch arrival {
      case .deliverDirectly:
        #if DEBUG || MULTICAST_INTERNAL_CHECKS
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
