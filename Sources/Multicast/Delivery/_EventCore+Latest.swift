// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _EventCore {
  /// The core of the subscriptions that hear only the latest value (README.md, section
  /// 4): made on first use, shared while its subscriptions hold it through its link.
  func latestOnly() -> _EventCore<Value> {
    if let made = withLatest({ state, _ in state.latestOnly }) {
      return unsafeDowncast(made, to: _EventCore<Value>.self)
    }
    let made = derive({ value, connection in connection.send(Self.value(at: value)) }) { link in
      _EventCore(
        owner: nil, onFirstObserver: nil, onLastObserverGone: { link.update() },
        replaysLatest: replaysLatest, pairOffset: pairOffset, upstream: link, coalesces: true,
        mergeChanges: mergeChanges)
    }
    // Another thread's, if it was first; this one is released after unlocking.
    let shared = withLatest { state, _ in
      if let first = state.latestOnly { return first }
      state.latestOnly = made
      return made
    }
    return unsafeDowncast(shared, to: _EventCore<Value>.self)
  }

  /// Takes a newer value into `job`, if it is a send of this core's waiting, then moved
  /// last (D4), a change keeping the old value it replaces; true if it took it, the value
  /// it held going to `released`, released after unlocking (D12).
  @inline(never)
  func supersede(
    _ job: inout _DeliveryJob, with value: Value, end: UInt64, releasing released: inout AnyObject?
  ) -> Bool {
    guard job.source === self, case .send(let older, _) = job.kind else { return false }
    if let mergeChanges {
      var merged: Value? = nil
      older.lend { older in withUnsafePointer(to: value) { merged = mergeChanges(older, $0) } }
      job.kind = .send(_Value(value: merged.unsafelyUnwrapped), end: end)
    } else {
      job.kind = .send(_Value(value: value), end: end)
    }
    // A value whose release runs no code goes here, under the lock.
    if !_isPOD(Value.self) { released = _Released(older, released) }
    return true
  }

  /// For a core of changes: the change from the first's old value to the second's new
  /// one, delivered in place of both.
  @usableFromInline
  static func mergingChanges<Element>(
    _ older: UnsafeRawPointer, _ newer: UnsafeRawPointer
  ) -> Value where Value == (old: Element, new: Element) {
    (
      old: older.assumingMemoryBound(to: Value.self).pointee.old,
      new: newer.assumingMemoryBound(to: Value.self).pointee.new
    )
  }
}
