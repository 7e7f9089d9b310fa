// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

#if MULTICAST_INTERNAL_CHECKS
extension _EventCore {
  /// Traps unless D6 holds; call it with the storage's lock held, after a
  /// change to the registrations or the destinations.
  func checkDestinations(_ state: borrowing Registry.State) {
    let destinations = state.guarded.destinations
    let identities = destinations.map(\.actorIdentity)
    precondition(
      Set(identities).count == identities.count, "D6: an event has two destinations of one actor")
    let sole: _Destination? = destinations.count == 1 ? destinations[0] : nil
    precondition(
      state.guarded.soleDestination?.takeUnretainedValue() === sole,
      "D6: an event's sole destination is not its only one")
    let keys = Set(destinations.map(\.key))
    let core = ObjectIdentifier(self)
    precondition(
      !state.hasRegistration { object, subscriber in
        object == core && !keys.contains(subscriber.isolation)
      }, "D6: a live subscription's destination is not among its event's")
  }
}
#endif
