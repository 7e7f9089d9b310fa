// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _ObserverStorage {
  /// Drops the registrations whose objects are gone: a sweep.
  ///
  /// It looks at every registration as a broadcast does, without the lock,
  /// loading each weak reference and letting the object go at once; then, in
  /// one critical section, it flags removed the registrations it found dead
  /// (dead stays dead) and compacts if it flagged any.
  ///
  /// So a sweep holds an object only for the instant of its load. Holding
  /// the objects until the end of a critical section, as a sweep under the
  /// lock must (releasing one there could run a deinitializer that calls back
  /// into the storage), kept alive, for that long, an observer released
  /// meanwhile on another thread; its actor could then call it, after its
  /// release, with a value queued for it. No object is kept past the load,
  /// and a sweep makes no allocation unless it finds some dead.
  ///
  /// - Complexity: O(n), where n is the number of registrations; amortized
  ///   over the registrations that made it due.
  ///
  /// - Returns: Whether it removed any registration.
  @discardableResult
  func sweep() -> Bool {
    let start = beginBroadcast()
    let end = start.end
    // Written once, before the storage is shared.
    let ownerKey = state.pointee.ownerKey
    var dead: [UInt64] = []
    var alive = 0
    forEachRegistered(from: start) { entry, stamp in
      // An owner's registration holds no weak reference: it is alive.
      if entry.pointee.key == ownerKey || entry.pointee.object != nil {
        alive += 1
      } else {
        dead.append(stamp.sequence)
      }
      return true
    }
    #if DEBUG
    state.pointee.betweenSweepPhases?()
    #endif
    if dead.isEmpty {
      // Nothing a broadcast reads changes: the section needs no version.
      withLockedState(changing: false) { state in state.noteSweep(alive: alive, end: end) }
      return false
    }
    return mutateWithoutSweeping { state, garbage in
      state.finishSweep(dead: dead, alive: alive, end: end, &garbage)
    }
  }

  /// Sweeps if the sweep flag is set and no other thread claimed it first.
  ///
  /// - Returns: Whether the sweep removed any registration.
  @discardableResult
  func sweepIfWanted() -> Bool {
    readers.claimSweep() && sweep()
  }
}
