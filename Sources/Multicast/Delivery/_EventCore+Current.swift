// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _EventCore {
  /// Registers `handler` on `isolation` while `object` lives, with the latest value
  /// first if `startingWithLatest` or the core replays: it arrives in the section that
  /// orders the sends, before every later one (D4), and `registered` runs there.
  @inline(__always)
  func register(
    _ object: AnyObject, from isolation: (any Actor)?, handler: _Handler,
    startingWithLatest: Bool, registered: (_Registration) -> Void
  ) -> _Registration {
    var garbage = _CoreState.Garbage()
    let (registration, followup) = register(
      object, from: isolation, handler: handler, startingWithLatest: startingWithLatest,
      into: &garbage, registered: registered)
    _ = consume garbage
    follow(consume followup, from: isolation)
    if storage.sweepIfWanted() { didSweep(from: isolation) }
    return registration
  }

  /// ``register(_:from:handler:startingWithLatest:registered:)``'s section alone: what
  /// it drops goes to `garbage`; what is left, the first value's delivery, is returned.
  func register(
    _ object: AnyObject, from isolation: (any Actor)?, handler: _Handler,
    startingWithLatest: Bool, into garbage: inout _CoreState.Garbage,
    registered: (_Registration) -> Void
  ) -> (_Registration, _Followup) {
    // The common case handles no `Value`.
    guard startingWithLatest || replaysLatest else {
      return register(object, from: isolation, handler: handler, into: &garbage) {
        registration, _, _, _ in registered(registration)
      }
    }
    var first: _Followup.First? = nil
    var loaded: [any Actor]? = nil
    var (registration, followup) = register(
      object, from: isolation, handler: handler, into: &garbage
    ) { registration, counted, _, latest in
      registered(registration)
      guard let latest else { return }
      let destination = counted.takeUnretainedValue().destination
      let job = _DeliveryJob(self, .first(_Value(value: latest), registration))
      var batch: [_DeliveryJob] = []
      let arrival = destination.arrive(
        { job }, from: isolation, taking: &batch, keepingAlive: &loaded)
      first = _Followup.First(destination: destination, job: job, arrival: arrival, batch: batch)
    }
    followup.loaded = loaded?.first.map { $0 as AnyObject }
    followup.first = first
    return (registration, followup)
  }

  /// Delivers a first value to its one registration, if still registered.
  func deliverFirst(
    _ payload: any _Payload, to registration: _Registration, at destination: _Destination
  ) {
    var cursor = Optional(storage.beginBroadcast(of: registration))
    payload.lend { value in
      walk(value, from: &cursor, end: registration.sequence + 1, destination.key, noDestination)
    }
  }
}
