// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _EventCore {
  /// Traps unless D6 holds, in checked builds, in O(n); call it in a change's section.
  @inline(__always)
  func checkDestinations(_ state: borrowing Registry.State) {
    #if MULTICAST_INTERNAL_CHECKS
    var counts: [_IsolationKey: Int] = [:]
    _ = state.hasRegistration { _, subscriber in
      counts[subscriber.isolation, default: 0] += 1
      return false
    }
    let destinations = state.guarded.destinations.map { $0.takeUnretainedValue() }
    precondition(
      counts
        == Dictionary(
          uniqueKeysWithValues: destinations.filter { $0.count > 0 }.map { ($0.key, $0.count) }),
      "D6: an event's destinations do not count the registrations that record them")
    // Read outside the conditions, which are closures: one would copy the
    // borrowed state.
    for counted in destinations {
      let filed = state.guarded.subscribed(counted.key)?.takeUnretainedValue()
      precondition(
        counted.key == counted.destination.key && filed === counted,
        "D6: an event files a destination under another's key")
    }
    let used = destinations.filter { $0.count > 0 }
    let sole = state.guarded.soleDestination?.takeUnretainedValue()
    precondition(
      sole === (used.count == 1 ? used[0].destination : nil),
      "D6: an event's sole destination is not its only one in use")
    #endif
  }
}
