// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

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
    var owed: UInt64 = 0
    var arrival = _DeliveryState.Arrival.none
    var loaded: [any Actor] = []
    let registration = register(object, from: isolation, handler: handler) {
      registration, destination, _, latest in
      registered(registration)
      guard let first = latest else { return }
      let job = _DeliveryJob(self, .first(_Value(value: first), registration))
      arrival = destination.arrive(
        { job }, from: isolation, taking: &batch, owing: &owed, keepingAlive: &loaded)
      claimed = (destination, job)
    }
    loaded.removeAll()  // after unlocking (D12)
    if let (destination, job) = claimed {
      destination.complete(arrival, of: job, &batch, owing: owed)
    }
    return registration
  }

  /// Delivers a first value to its one registration, if still registered.
  func deliverFirst(
    _ payload: any _Payload, to registration: _Registration, at destination: _Destination
  ) {
    var cursor = Optional(storage.beginBroadcast(of: registration))
    payload.lend { value in
      _ = walk(value, from: &cursor, end: registration.sequence + 1, destination.key, noDestination)
    }
  }
}
