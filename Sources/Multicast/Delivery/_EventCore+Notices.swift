// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What a change leaves to do once no lock is held (README.md, section 2).
struct _Followup {
  var outcome = _OccupancyNotices.Outcome.none
  /// A live object a query found, or an actor seen to live (D12).
  var loaded: AnyObject? = nil
  var first: First? = nil
  var connectsUpstream = false

  /// A new subscription's first value, which arrived at its destination in the
  /// registration's section (a class: rare, and cheap to carry when absent).
  final class First {
    let destination: _Destination
    let job: _DeliveryJob
    let arrival: _DeliveryState.Arrival
    var batch: [_DeliveryJob]

    init(
      destination: _Destination, job: _DeliveryJob, arrival: _DeliveryState.Arrival,
      batch: [_DeliveryJob]
    ) {
      self.destination = destination
      self.job = job
      self.arrival = arrival
      self.batch = batch
    }
  }
}

extension _EventCore {
  /// Makes `body`'s change in one section, recording there whether a live registration
  /// is left (D10) unless `body` does (`isRecorded`); what it drops goes to `garbage`,
  /// to release before doing what is left (``follow(_:from:)``).
  @inline(__always)
  func change<Result>(
    from isolation: (any Actor)?, into garbage: inout _CoreState.Garbage,
    isRecorded: Bool = false,
    _ body: (inout Registry.State, inout Registry.Garbage) -> Result
  ) -> (Result, _Followup) {
    storage.withWritingSection { state in
      let result = body(&state, &garbage)
      checkDestinations(state)
      var followup = _Followup()
      if hasNotices && !isRecorded {
        (followup.outcome, followup.loaded) = recordOccupancy(of: &state, from: isolation)
      }
      return (result, followup)
    }
  }

  /// Does what a change left to do, with no lock held.
  @inline(__always)
  func follow(_ followup: consuming _Followup, from isolation: (any Actor)?) {
    followup.loaded = nil
    if followup.outcome != .none { notifyOwner(followup.outcome, from: isolation) }
    if followup.connectsUpstream, let upstream { upstream.update() }  // D11
    if let first = followup.first.take() {
      first.destination.complete(first.arrival, of: first.job, &first.batch)
    }
  }

  /// Makes `body`'s change, does what it leaves to do, then sweeps if wanted.
  @discardableResult @inline(__always)
  func change<Result>(
    from isolation: (any Actor)?,
    _ body: (inout Registry.State, inout Registry.Garbage) -> Result
  ) -> Result {
    // Without notices, a change leaves nothing to do but release.
    guard hasNotices else {
      return storage.mutate { state, garbage in
        let result = body(&state, &garbage)
        checkDestinations(state)
        return result
      }
    }
    var garbage = _CoreState.Garbage()
    let (result, followup) = change(from: isolation, into: &garbage, body)
    _ = consume garbage
    follow(consume followup, from: isolation)
    if storage.sweepIfWanted() { didSweep(from: isolation) }
    return result
  }

  /// After a sweep removed registrations, of other actors' targets too: records the
  /// notices again (D10), and updates a derived event's connection upstream (D11).
  func didSweep(from isolation: (any Actor)?) {
    if hasNotices { recordOccupancyAfterSweep(from: isolation) }
    upstream?.update()
  }

  /// Records, with the lock held, whether a live registration is left, loading only
  /// targets of no actor or of the caller's (README.md, section 2); returns the
  /// transition and the live object loaded, to release after unlocking.
  private func recordOccupancy(
    of state: inout Registry.State, from isolation: (any Actor)?
  ) -> (_OccupancyNotices.Outcome, AnyObject?) {
    // The caller's own actor only is loaded, which it holds (D12).
    let key = _IsolationKey(isolation)
    let here =
      state.guarded.subscribed(key)?.takeUnretainedValue().destination.serves(isolation) == true
      ? key : noDestination
    let core = ObjectIdentifier(self)
    let isOccupied = state.hasRegistration { object, subscriber in
      object == core || (subscriber.isolation != .noActor && subscriber.isolation != here)
    }
    if isOccupied { return (state.guarded.notices.record(isOccupied: true), nil) }
    let liveObject = state.firstLiveObject()
    return (state.guarded.notices.record(isOccupied: liveObject != nil), liveObject)
  }

  /// Decides again, after a sweep, whether a live registration is left.
  func recordOccupancyAfterSweep(from isolation: (any Actor)?) {
    let (outcome, liveObject) = storage.withReadingSection { state in
      recordOccupancy(of: &state, from: isolation)
    }
    withExtendedLifetime(liveObject) {}
    notifyOwner(outcome, from: isolation)
  }

  /// Tells the owner of the transitions recorded (README.md, section 4, "Notices").
  func notifyOwner(_ outcome: _OccupancyNotices.Outcome, from isolation: (any Actor)?) {
    guard outcome != .none else { return }
    guard let owner = ownerDestination else {
      if outcome == .tell { tellOwner() }
      return
    }
    if owner.isCurrent(isolation) {
      if outcome == .tell { tellOwner() } else { owner.deliverWaiting() }
    } else if outcome == .tell {
      owner.enqueue(_DeliveryJob(self, .notices))
    }
  }

  /// Tells the owner of every transition not yet told, in order, with no lock held (D10).
  func tellOwner() {
    while let becameObserved = storage.withReadingSection({ $0.guarded.notices.takeNext() }) {
      if becameObserved {
        onFirstObserver?()
      } else {
        onLastObserverGone?()
      }
    }
  }
}

/// An event's transitions between no live subscription and some, recorded under the
/// storage's lock, and how many are told: the k-th (from 0) is to "observed" if k is even.
struct _OccupancyNotices {
  private(set) var recorded: UInt64 = 0
  /// The transitions told, or being told.
  private(set) var told: UInt64 = 0
  /// Whether a thread is telling the owner, or a job is queued to.
  private(set) var isTelling = false

  var isOccupied: Bool { recorded % 2 == 1 }

  /// What the caller of ``record(isOccupied:)`` must do.
  enum Outcome {
    /// Tell the owner (``takeNext()`` until it returns `nil`).
    case tell
    /// Nothing: transitions wait to be told by the teller there is.
    case untold
    /// Nothing: everything recorded is told.
    case none
  }

  /// Records whether the event has a live subscription now.
  mutating func record(isOccupied: Bool) -> Outcome {
    defer { checkInvariants() }
    if isOccupied != self.isOccupied {
      recorded += 1
      if !isTelling {
        isTelling = true
        return .tell
      }
    }
    return told < recorded ? .untold : .none
  }

  /// The next transition to tell: `true` for the first observer, `false`
  /// for the last one gone; `nil` when all are told, and the teller stops.
  mutating func takeNext() -> Bool? {
    defer { checkInvariants() }
    guard told < recorded else {
      isTelling = false
      return nil
    }
    told += 1
    return told % 2 == 1
  }

  /// Traps, in checked builds, unless D10 holds.
  @inline(__always)
  private func checkInvariants() {
    #if MULTICAST_INTERNAL_CHECKS
    precondition(
      told <= recorded && (told == recorded || isTelling),
      "D10: a transition is left untold with no one to tell it")
    #endif
  }
}
