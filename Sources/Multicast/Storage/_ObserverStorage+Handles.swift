// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// A handle registry's operations (README.md, section 1), as steps of the caller's mutation.

extension _ObserverStorage.State where Index == _NoIndex {
  /// Registers a new entry for `object`, and returns its handle.
  mutating func append(
    _ object: AnyObject, payload: consuming Payload, _ garbage: inout _ObserverStorage.Garbage
  ) -> _Registration {
    _Registration(sequence: register(object, payload: consume payload, &garbage))
  }

  /// Removes `registration`, making `placeholder` only if the entry stays; true if it was there.
  @discardableResult
  mutating func removeRegistration(
    _ registration: _Registration, _ garbage: inout _ObserverStorage.Garbage,
    replacingPayloadWith placeholder: @autoclosure () -> Payload? = nil
  ) -> Bool {
    let position = buffer.position(ofFirst: registration.sequence, below: buffer.count)
    guard position < buffer.count else { return false }
    let stamp = buffer.stamp(at: position)
    guard stamp.sequence == registration.sequence, !stamp.isRemoved else { return false }
    if position == buffer.count - 1 && !isBufferRead {
      removeLast(&garbage)
      // Such removals never fill the buffer, so a due sweep is wanted here.
      wantSweepIfDue()
      compactIfSparse(&garbage)
      return true
    }
    remove(at: position)
    if let placeholder = placeholder() {
      releasePayload(at: position, replacingWith: placeholder, &garbage)
    }
    compactIfSparse(&garbage)
    return true
  }

  /// Replaces the removed entry's payload at `position` with `placeholder` now, if unread (I4).
  ///
  /// Destroying `placeholder` must run no user code: compaction destroys it under the lock.
  mutating func releasePayload(
    at position: Int, replacingWith placeholder: Payload,
    _ garbage: inout _ObserverStorage.Garbage
  ) {
    guard !_isPOD(Payload.self), !isBufferRead else { return }
    checkUnread()
    garbage.keep(buffer.payload(at: position).move())
    buffer.payload(at: position).initialize(to: placeholder)
    buffer.setStamp(buffer.stamp(at: position).adding(_EntryStamp.releasedFlag), at: position)
  }

  /// Removes every registration held by `object`, and returns how many.
  @discardableResult
  mutating func removeAll(
    heldBy object: AnyObject, _ garbage: inout _ObserverStorage.Garbage,
    replacingPayloadsWith placeholder: Payload? = nil
  ) -> Int {
    let key = ObjectIdentifier(object)
    return removeAll(&garbage, replacingPayloadsWith: placeholder) { entryKey, _ in entryKey == key
    }
  }

  /// Removes the registrations `predicate` picks by object identity and payload; returns how many.
  @discardableResult
  mutating func removeAll(
    _ garbage: inout _ObserverStorage.Garbage, replacingPayloadsWith placeholder: Payload?,
    where predicate: (ObjectIdentifier, Payload) -> Bool
  ) -> Int {
    var removed = 0
    for position in 0..<buffer.count where !buffer.stamp(at: position).isRemoved {
      guard predicate(buffer.entry(at: position).pointee.key, buffer.payload(at: position).pointee)
      else { continue }
      remove(at: position)
      if let placeholder { releasePayload(at: position, replacingWith: placeholder, &garbage) }
      removed += 1
    }
    compactIfSparse(&garbage)
    return removed
  }
}

extension _ObserverStorage where Index == _NoIndex {
  /// Starts a broadcast of `registration` alone, none if removed; end it with ``endBroadcast(_:)``.
  func beginBroadcast(of registration: _Registration) -> _BroadcastCursor<Payload, Index> {
    withReadingSection { state in
      let buffer = state.buffer
      let end = registration.sequence + 1
      return _BroadcastCursor(
        buffer: buffer,
        position: buffer.position(ofFirst: registration.sequence, below: buffer.count),
        endPosition: buffer.position(ofFirst: end, below: buffer.count), end: end,
        counter: state.countBroadcast())
    }
  }
}

extension _ObserverStorage where Index == _NoIndex {
  /// Makes `host`, the object that keeps this storage, its host (README.md, section 1).
  ///
  /// Walk such a storage with ``forEach(from:where:holding:_:)``, which lends the host.
  func setHost(_ host: AnyObject) {
    precondition(state.pointee.buffer.count == 0, "a host set after a registration")
    state.pointee.host = .passUnretained(host)
    state.pointee.hostKey = ObjectIdentifier(host)
  }
}
