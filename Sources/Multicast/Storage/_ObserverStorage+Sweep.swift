// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _ObserverStorage {
  /// Drops the registrations whose objects are gone (README.md, section 5); true if it removed any.
  @discardableResult
  func sweep() -> Bool {
    let start = beginBroadcast()
    let end = start.end
    // Written once, before the storage is shared.
    let hostKey = state.pointee.hostKey
    var dead: [UInt64] = []
    var alive = 0
    forEachRegistered(from: start) { entry, stamp in
      // A host's registration holds no weak reference: it is alive.
      if entry.pointee.key == hostKey || entry.pointee.object != nil {
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
      // Nothing a broadcast begins with changes (I2).
      withReadingSection { state in state.noteSweep(alive: alive, end: end) }
      return false
    }
    return mutateWithoutSweeping { state, garbage in
      state.finishSweep(dead: dead, alive: alive, end: end, &garbage)
    }
  }

  /// Sweeps if `tally` shows the dead cost its walk too much; returns whether it removed any.
  @usableFromInline @inline(never)
  func sweep(after tally: _WalkTally) -> Bool {
    tally.isMostlyDead && sweep()
  }

  /// Sweeps if wanted and no other thread claimed it first; returns whether it removed any.
  @discardableResult
  func sweepIfWanted() -> Bool {
    readers.claimSweep() && sweep()
  }
}
