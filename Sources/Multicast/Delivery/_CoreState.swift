// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What an event core's storage guards besides the registrations (README.md,
/// section 2); not generic, so that its layout is known to unspecialized code.
@usableFromInline
struct _CoreState: _Guarded {
  /// What an event's change dropped, released once no lock is held.
  typealias Garbage = _HandleRegistry<_Subscriber, _CoreState>.Garbage

  /// A destination and the number of registrations not removed that
  /// record its key (D6); a class, so that a count changes in place.
  final class Subscribed {
    let key: _IsolationKey
    let destination: _Destination
    var count = 1
    /// Whether its actor is gone and its registrations are being dropped.
    var isOrphaned = false
    /// Where it is in `destinations`.
    fileprivate var position: Int

    init(_ destination: _Destination, at position: Int) {
      key = destination.key
      self.destination = destination
      self.position = position
    }
  }

  /// The destinations in use and parked (D6), each holding one reference, given
  /// back when dropped or by ``releaseAll()``, so that reading one counts none.
  private(set) var destinations: [Unmanaged<Subscribed>] = []
  /// How many of `destinations` are parked.
  private var parked = 0
  /// `destinations` by key, once they are too many to search.
  private var index: [_IsolationKey: Unmanaged<Subscribed>]? = nil
  /// The destination, when exactly one is in use; `destinations` holds it.
  private(set) var soleDestination: Unmanaged<_Destination>? = nil
  /// The event's destination of no actor, kept for the core's life once
  /// made, so that a send may deliver there holding no reference to it.
  private var ownDestinationIfMade: _Destination? = nil
  /// The owner's notices, recorded and told (D10).
  var notices = _OccupancyNotices()
  /// The latest-only core, while anything holds it (`_EventCore.latestOnly()`).
  weak var latestOnly: AnyObject?
  /// A derived event's connection upstream, numbered anew as each ends (D11).
  var connection: UInt64 = 0
  /// An observable value's Observation registrar, made and used by its face,
  /// which stores only its own class here and casts it back unchecked.
  @usableFromInline var observation: AnyObject? = nil

  /// The event's destination of no actor, made on first use.
  var ownDestination: _Destination {
    mutating get {
      if let ownDestinationIfMade { return ownDestinationIfMade }
      let made = _Destination(actor: nil)
      ownDestinationIfMade = made
      return made
    }
  }

  /// The destination with `key`, and its count; O(1) on average (D6).
  func subscribed(_ key: _IsolationKey) -> Unmanaged<Subscribed>? {
    if let index { return index[key] }
    return destinations.first { $0._withUnsafeGuaranteedRef { $0.key == key } }
  }

  /// Whether a registration is not removed: whether a destination is in use.
  var isUsed: Bool { destinations.count > parked }

  /// Counts a registration on `counted`, taking it out of the parked.
  mutating func subscribe(to counted: Unmanaged<Subscribed>) {
    let wasParked = counted._withUnsafeGuaranteedRef {
      $0.count += 1
      return $0.count == 1
    }
    guard wasParked else { return }
    parked -= 1
    noteSole()
  }

  /// Adds `destination`, with its first registration; O(1) on average.
  mutating func add(_ destination: _Destination) -> Unmanaged<Subscribed> {
    let added = Unmanaged.passRetained(Subscribed(destination, at: destinations.count))
    destinations.append(added)
    if index != nil {
      index![destination.key] = added
    } else if destinations.count > 8 {
      index = Dictionary(
        uniqueKeysWithValues: destinations.lazy.map { ($0.takeUnretainedValue().key, $0) })
    }
    noteSole()
    return added
  }

  /// The storage tells every removal: `removed` counts it down, parking the
  /// destination with its last (D6); O(1) amortized.
  @usableFromInline static var hearsRemovals: Bool { true }

  @usableFromInline
  mutating func removed(_ payload: UnsafeRawPointer) {
    // Only the count is read: the payload is not copied.
    guard let counted = payload.assumingMemoryBound(to: _Subscriber.self).pointee.counted else {
      preconditionFailure("D6: an ended registration was removed again")
    }
    let isLast = counted._withUnsafeGuaranteedRef {
      $0.count -= 1
      return $0.count == 0
    }
    guard isLast else { return }
    parked += 1
    if parked > Swift.max(4, destinations.count - parked) { dropParked() }
    noteSole()
  }

  /// Whether `subscribed` is among `destinations`, not dropped.
  func lists(_ subscribed: Subscribed) -> Bool {
    subscribed.position < destinations.count
      && destinations[subscribed.position].toOpaque()
        == Unmanaged.passUnretained(subscribed).toOpaque()
  }

  /// Drops `counted`, parked, now.
  mutating func dropParked(_ counted: Unmanaged<Subscribed>) {
    let (position, key) = counted._withUnsafeGuaranteedRef { ($0.position, $0.key) }
    // The last takes its place.
    let last = destinations.removeLast()
    if last.toOpaque() != counted.toOpaque() {
      last._withUnsafeGuaranteedRef { $0.position = position }
      destinations[position] = last
    }
    index?[key] = nil
    if destinations.isEmpty { index = nil }
    parked -= 1
    counted.release()
    noteSole()
  }

  /// Drops every parked destination, in O(destinations).
  private mutating func dropParked() {
    var position = destinations.count
    while position > 0 {
      position -= 1
      let counted = destinations[position]
      if counted._withUnsafeGuaranteedRef({ $0.count == 0 }) { dropParked(counted) }
    }
  }

  /// Gives back every destination's reference, when the event goes.
  mutating func releaseAll() {
    for counted in destinations { counted.release() }
    destinations.removeAll()
    parked = 0
    index = nil
    soleDestination = nil
  }

  private mutating func noteSole() {
    guard destinations.count - parked == 1 else {
      soleDestination = nil
      return
    }
    let used = destinations.first { $0._withUnsafeGuaranteedRef { $0.count > 0 } }
    soleDestination = used?._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.destination) }
  }
}
