// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _EventCore {
  /// Makes `body`'s change to the registrations and, in the same critical
  /// section, records whether a live registration is left; then tells the
  /// owner of any transition.
  ///
  /// Deciding under the lock is what makes the notices exact: two threads
  /// that end the last two subscriptions at once cannot both see one left,
  /// or both see none.
  @discardableResult @inline(__always)
  func change<Result>(
    from isolation: (any Actor)?,
    _ body: (inout _HandleRegistry<_Subscriber>.State, inout _HandleRegistry<_Subscriber>.Garbage)
      -> Result
  ) -> Result {
    // With no one to tell, there is no transition to record.
    guard hasNotices else { return storage.mutate(body) }
    let (result, outcome, liveObject) = storage.mutateWithoutSweeping { state, garbage in
      let result = body(&state, &garbage)
      let (outcome, liveObject) = recordOccupancy(of: state, from: isolation)
      return (result, outcome, liveObject)
    }
    // The live object that was found is released here, after unlocking.
    withExtendedLifetime(liveObject) {}
    notifyOwner(outcome, from: isolation)
    // A sweep that the change asked for may drop dead targets of other
    // actors, which counted as alive above: if it drops any, whether a live
    // registration is left is decided again.
    if storage.sweepIfWanted() { recordOccupancyAfterSweep(from: isolation) }
    return result
  }

  /// Records, with the lock held, whether a live registration is left.
  ///
  /// It loads no target of another isolation: a load keeps its object alive
  /// a moment longer, here, and might run its deinitializer here. A closure
  /// subscription's registration is held by the core itself, so it lives
  /// while the core does. Another actor's targets count as alive: the
  /// deliveries on that actor notice their deaths (see `dropIfUnobserved`). Targets of
  /// this isolation, or of none, are loaded.
  ///
  /// - Returns: The transition to tell, and the live object found, if one
  ///   was loaded: release it after unlocking.
  private func recordOccupancy(
    of state: borrowing _HandleRegistry<_Subscriber>.State, from isolation: (any Actor)?
  ) -> (_OccupancyNotices.Outcome, AnyObject?) {
    let here = destinations.first { $0.serves(isolation) }?.key ?? noDestination
    let core = ObjectIdentifier(self)
    let isOccupied = state.hasRegistration { object, subscriber in
      object == core || (subscriber.isolation != .noActor && subscriber.isolation != here)
    }
    if isOccupied { return (notices.record(isOccupied: true), nil) }
    let liveObject = state.firstLiveObject()
    return (notices.record(isOccupied: liveObject != nil), liveObject)
  }

  /// Decides again whether a live registration is left, after a sweep
  /// dropped registrations, and tells the owner of a transition.
  private func recordOccupancyAfterSweep(from isolation: (any Actor)?) {
    let (outcome, liveObject) = storage.withLockedState(changing: false) { state in
      recordOccupancy(of: state, from: isolation)
    }
    withExtendedLifetime(liveObject) {}
    notifyOwner(outcome, from: isolation)
  }

  /// Tells the owner of the transitions recorded, on the owner's isolation,
  /// after a change: at once when the caller runs there (or the owner has
  /// none), otherwise through the owner's destination, in order with
  /// everything else queued for that actor.
  ///
  /// A change made on the owner's isolation while transitions wait in the
  /// owner's queue delivers that queue, and so tells them (its own after
  /// them), before it returns.
  func notifyOwner(_ outcome: _OccupancyNotices.Outcome, from isolation: (any Actor)?) {
    guard outcome != .none else { return }
    guard let owner = ownerDestination else {
      if outcome == .tell { tellOwner() }
      return
    }
    if owner.isCurrent(isolation) {
      if outcome == .tell { tellOwner() } else { owner.deliverWaiting() }
    } else if outcome == .tell {
      owner.enqueue(_DeliveryJob(self, payload: (), end: _noticeJobEnd))
    }
  }

  /// Tells the owner of every transition recorded and not yet told of, in
  /// order, one at a time, with no lock held.
  ///
  /// Only one thread does this at a time: a transition recorded meanwhile, on
  /// this thread (by a notice that subscribes) or another, is told by this
  /// loop, after the notice that is running.
  func tellOwner() {
    while let becameObserved = storage.withLockedState(changing: false, { _ in notices.takeNext() })
    {
      if becameObserved {
        onFirstObserver?()
      } else {
        onLastObserverGone?()
      }
    }
  }
}

/// The transitions of an event between no live subscription and some, as
/// recorded under the storage's lock, and how many of them the owner has been
/// told of.
///
/// Transitions alternate, starting with the first observer: the k-th (from 0)
/// is to "observed" when k is even.
struct _OccupancyNotices {
  /// The transitions recorded.
  private(set) var recorded: UInt64 = 0
  /// The transitions the owner has been told of, or is being told of.
  private(set) var told: UInt64 = 0
  /// Whether a thread is telling the owner, or a job is queued to.
  private(set) var isTelling = false

  /// Whether the event had a live subscription when last looked at: after
  /// an odd number of transitions, since they alternate from none.
  var isOccupied: Bool { recorded % 2 == 1 }

  /// What the caller of ``record(isOccupied:)`` must do.
  enum Outcome {
    /// Tell the owner (``takeNext()`` until it returns `nil`): a transition
    /// was recorded and no one else is telling.
    case tell
    /// Nothing now, but transitions wait to be told, by someone else: a
    /// notice running, or one queued for the owner's actor.
    case untold
    /// Nothing: everything recorded is told.
    case none
  }

  /// Records whether the event has a live subscription now.
  mutating func record(isOccupied: Bool) -> Outcome {
    if isOccupied != self.isOccupied {
      recorded += 1
      if !isTelling {
        isTelling = true
        return .tell
      }
    }
    return told < recorded ? .untold : .none
  }

  /// The next transition to tell the owner of: `true` for the first observer,
  /// `false` for the last one gone; or `nil`, when all are told, and the
  /// caller stops telling.
  mutating func takeNext() -> Bool? {
    guard told < recorded else {
      isTelling = false
      return nil
    }
    told += 1
    return told % 2 == 1
  }
}
