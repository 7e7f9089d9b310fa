// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _EventCore: _DeliverySource {
  /// Delivers `value` to every subscription, before returning where the caller
  /// runs and queued elsewhere; inlined, so that the caller's module lends the
  /// value by a pointer with its type known.
  @inlinable
  func send(_ value: Value, from isolation: (any Actor)?) {
    withUnsafePointer(to: value) { send(at: UnsafeRawPointer($0), from: isolation) }
  }

  /// ``send(_:from:)`` of the value at `value` (README.md, section 3).
  @usableFromInline
  func send(at value: UnsafeRawPointer, from isolation: (any Actor)?) {
    send(at: value, from: isolation) { _ in true }
  }

  /// ``send(at:from:)`` of a derived core, where no actor is, if
  /// `connection` is still its connection upstream (D11).
  @usableFromInline
  func send(at value: UnsafeRawPointer, through connection: UInt64) {
    send(at: value, from: nil) { $0.connection == connection }
  }

  @inline(__always)
  private func send(
    at value: UnsafeRawPointer, from isolation: (any Actor)?,
    if isAccepted: (borrowing _CoreState) -> Bool
  ) {
    // Every case but the common one is decided into `slot`.
    withUnsafeTemporaryAllocation(of: _LocalSend.self, capacity: 1) { slot in
      let local = slot.baseAddress.unsafelyUnwrapped
      if let sole = decide(at: value, from: isolation, if: isAccepted, else: local) {
        deliverAlone(value, on: sole.destination, from: sole.cursor)
      } else {
        deliver(local, at: value)
      }
    }
  }

  /// The one decision of ``send(at:from:)``: the common case returned, every
  /// other made in `local` (with nothing to deliver if not accepted).
  @inline(__always)
  private func decide(
    at value: UnsafeRawPointer, from isolation: (any Actor)?,
    if isAccepted: (borrowing _CoreState) -> Bool,
    else local: UnsafeMutablePointer<_LocalSend>
  ) -> (destination: Unmanaged<_Destination>, cursor: _LocalSend.Cursor)? {
    storage.withReadingSection { state in
      guard isAccepted(state.guarded) else {
        local.initialize(to: _LocalSend(end: state.nextSequence))
        return nil
      }
      if !replaysLatest, !coalesces, let destination = state.guarded.soleDestination,
        destination._withUnsafeGuaranteedRef({
          $0.isCurrentLoadingNothing(isolation) && $0.claimIfIdle()
        })
      {
        // A mortal actor's destination is held: a change on another thread
        // may drop it. The others outlive the send (`_CoreState`).
        if destination._withUnsafeGuaranteedRef({ $0.isOfMortalActor }) { _ = destination.retain() }
        return (destination, state.beginBroadcast())
      }
      arrive(at: value, &state, from: isolation, into: local)
      return nil
    }
  }

  /// Delivers a send on the one destination claimed, then what came meanwhile.
  @inline(__always)
  private func deliverAlone(
    _ value: UnsafeRawPointer, on destination: Unmanaged<_Destination>,
    from cursor: _LocalSend.Cursor
  ) {
    var cursor = Optional(cursor)
    let (key, isRetained) = destination._withUnsafeGuaranteedRef { ($0.key, $0.isOfMortalActor) }
    defer { if isRetained { destination.release() } }
    destination._withUnsafeGuaranteedRef { $0.checkDelivering() }
    walk(value, from: &cursor, end: cursor.unsafelyUnwrapped.end, key, key)
    if destination._withUnsafeGuaranteedRef({ $0.finishIfOnlyDelivering() }) { return }
    var batch: [_DeliveryJob] = []
    destination._withUnsafeGuaranteedRef { $0.deliverQueued(&batch) }
  }

  /// Decides a send of the value `makeValue` makes from the current one in the
  /// section (an assignment), then ``deliver(_:_:)`` it: into `local`,
  /// uninitialized memory, since a noncopyable value returned would be copied.
  @usableFromInline @inline(__always)
  func prepare(
    from isolation: (any Actor)?, into local: UnsafeMutablePointer<_LocalSend>,
    _ makeValue: (inout _CoreState, _ latest: inout Value?) -> Value
  ) {
    withReadingSection { state, latest in
      arrive(makeValue(&state.guarded, &latest), &state, from: isolation, into: local)
    }
  }

  /// Assigns `newValue` to an observable value: makes it the latest, and its
  /// change from the old one a send, in one section; runs `stored` with the
  /// value's Observation registrar, if made, once no lock is held; then
  /// delivers the change.
  @inlinable
  func assign<Element>(
    _ newValue: Element, from isolation: (any Actor)?,
    stored: (_ registrar: AnyObject?) -> Void
  ) where Value == (old: Element, new: Element) {
    var change = (old: newValue, new: newValue)
    var registrar: Unmanaged<AnyObject>?
    withUnsafeTemporaryAllocation(of: _LocalSend.self, capacity: 1) { slot in
      let local = slot.baseAddress.unsafelyUnwrapped
      prepare(from: isolation, into: local) { guarded, latest in
        change.old = latest.unsafelyUnwrapped.new
        latest = (old: newValue, new: newValue)
        // Unretained: the value holds it, and lives.
        registrar = guarded.observation.map(Unmanaged.passUnretained)
        return change
      }
      if let registrar { registrar._withUnsafeGuaranteedRef { stored($0) } } else { stored(nil) }
      deliver(local, change)
    }
  }

  /// Delivers `value` as decided in `local`, which it deinitializes.
  @usableFromInline
  func deliver(_ local: UnsafeMutablePointer<_LocalSend>, _ value: Value) {
    withUnsafePointer(to: value) { deliver(local, at: $0) }
  }

  /// Makes a send's arrival at each destination, in the section that orders
  /// its event's sends (D4, D5): queued, or claimed (the walk begun if direct).
  func arrive(
    _ value: Value, _ state: inout Registry.State, from isolation: (any Actor)?,
    into decided: UnsafeMutablePointer<_LocalSend>
  ) {
    decided.initialize(to: _LocalSend(end: state.nextSequence))
    let end = decided.pointee.end
    for counted in state.guarded.destinations {
      // A parked destination has no one to deliver to.
      guard
        let destination = counted._withUnsafeGuaranteedRef({ $0.count > 0 ? $0.destination : nil })
      else { continue }
      var batch: [_DeliveryJob] = []
      let arrival =
        coalesces
        ? destination.arrive(
          { _DeliveryJob(self, .send(_Value(value: value), end: end)) }, from: isolation,
          taking: &batch, keepingAlive: &decided.pointee.loaded
        ) { supersede(&$0, with: value, end: end, releasing: &decided.pointee.replaced) }
        : destination.arrive(
          { _DeliveryJob(self, .send(_Value(value: value), end: end)) }, from: isolation,
          taking: &batch, keepingAlive: &decided.pointee.loaded)
      switch arrival {
      case .deliverDirectly, .deliverBatch:
        let isOwn = destination.actorIdentity == nil
        let claimed = _LocalSend.Claimed(
          destination: destination, skipsQueue: arrival == .deliverDirectly,
          batch: consume batch)
        if decided.pointee.first == nil {
          decided.pointee.first = consume claimed
        } else if decided.pointee.second == nil {
          // The event's own destination first, whatever the array's order.
          if isOwn {
            decided.pointee.second = decided.pointee.first.take()
            decided.pointee.first = consume claimed
          } else {
            decided.pointee.second = consume claimed
          }
        } else {
          decided.pointee.others.append(consume claimed)
        }
      case .scheduleDrain:
        if decided.pointee.idle == nil {
          decided.pointee.idle = [destination]
        } else {
          decided.pointee.idle!.append(destination)
        }
      case .orphaned:
        let orphan = counted.takeUnretainedValue()
        if decided.pointee.orphans == nil {
          decided.pointee.orphans = [orphan]
        } else {
          decided.pointee.orphans!.append(orphan)
        }
      case .none:
        break
      }
    }
    if decided.pointee.first?.skipsQueue == true || decided.pointee.second?.skipsQueue == true {
      decided.pointee.cursor = state.beginBroadcast()
    }
  }

  /// Does what a send's section decided, after unlocking (README.md, section
  /// 3): one walk serves two claims that skip the queue, in registration order.
  private func deliver(_ decided: UnsafeMutablePointer<_LocalSend>, at value: UnsafeRawPointer) {
    defer { decided.deinitialize(count: 1) }
    deliver(&decided.pointee, at: value)
  }

  @inline(__always)
  private func deliver(_ local: inout _LocalSend, at value: UnsafeRawPointer) {
    if let orphans = local.orphans.take() { drop(orphaned: orphans) }
    if let idle = local.idle.take() {
      let orphans = idle.filter { $0.scheduleDrain(sparing: self) }
      if !orphans.isEmpty {
        // Its own jobs there, spared, included a notice if the owner's.
        if orphans.contains(where: { $0 === ownerDestination }) { dropNotices() }
        drop(orphaned: orphans)
      }
    }
    // Moved out of `local`, so that each batch goes back without a copy.
    guard var first = local.first.take() else { return }
    var second = local.second.take()
    var cursor = local.cursor.take()
    if first.skipsQueue, second?.skipsQueue ?? true {
      first.destination.checkDelivering()
      second?.destination.checkDelivering()
      walk(
        value, from: &cursor, end: local.end, first.destination.key,
        second?.destination.key ?? noDestination)
      first.destination.deliverQueued(&first.batch)
      if var second = second.take() {
        second.destination.deliverQueued(&second.batch)
      }
    } else {
      deliver(&first, value, from: &cursor, end: local.end)
      if var second = second.take() { deliver(&second, value, from: &cursor, end: local.end) }
    }
    for index in local.others.indices {
      deliver(&local.others[index], value, from: &cursor, end: local.end)
    }
    // A walk begun for a send that, in the end, did not use it.
    if let cursor { storage.endBroadcast(cursor) }
  }

  /// Delivers one claimed destination on its own.
  private func deliver(
    _ claimed: inout _LocalSend.Claimed, _ value: UnsafeRawPointer,
    from cursor: inout _LocalSend.Cursor?, end: UInt64
  ) {
    if claimed.skipsQueue {
      claimed.destination.checkDelivering()
      walk(value, from: &cursor, end: end, claimed.destination.key, noDestination)
    }
    claimed.destination.deliverQueued(&claimed.batch)
  }
}
