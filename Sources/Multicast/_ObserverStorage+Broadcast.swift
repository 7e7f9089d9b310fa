// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Where a broadcast is: the buffer it reads, the next position, the count of
/// positions it may visit, and the first sequence number it must not visit.
@usableFromInline
struct _BroadcastCursor<Payload> {
  @usableFromInline var buffer: _ObserverBuffer<Payload>
  @usableFromInline var entries: UnsafeMutablePointer<_ObserverEntry>
  @usableFromInline var payloads: UnsafeMutablePointer<Payload>
  @usableFromInline var position: Int
  @usableFromInline var count: Int
  /// The sequence number that the next registration after the broadcast
  /// began got: entries from it on are not visited.
  @usableFromInline let end: UInt64

  @inlinable
  init(buffer: _ObserverBuffer<Payload>, position: Int, count: Int, end: UInt64) {
    self.buffer = buffer
    self.entries = buffer.entries
    self.payloads = buffer.payloads
    self.position = position
    self.count = count
    self.end = end
  }
}

extension _ObserverStorage {
  /// Calls `body` with each live registration that existed when the call
  /// began and is not removed before its turn, in registration order, with no
  /// lock held, until `body` returns `false`.
  ///
  /// Everything here is inlined into the caller and specialized for its
  /// payload: a broadcast makes no call but to the lock, the weak load and
  /// `body`.
  @inlinable
  func visit(
    _ body: (_ object: consuming AnyObject, _ payload: Payload) throws -> Bool
  ) rethrows {
    var cursor = beginBroadcast()
    defer { endBroadcast(cursor) }
    while cursor.position < cursor.count {
      let word = cursor.buffer.word(at: cursor.position)
      if _fastPath(word.isCurrent) {
        if let object = cursor.entries[cursor.position].object {
          guard try body(object, cursor.payloads[cursor.position]) else { return }
        }
      } else if !word.isRemoved {
        // Moved: go on in the buffer that replaced this one.
        relocate(&cursor, to: word.sequence)
        continue
      }
      cursor.position += 1
    }
  }

  /// Calls `body` with each live registration, as ``visit(_:)`` does.
  @inlinable
  func forEach(
    _ body: (_ object: consuming AnyObject, _ payload: Payload) throws -> Void
  ) rethrows {
    try visit { object, payload in
      try body(object, payload)
      return true
    }
  }

  /// Starts a broadcast: counts it among the current buffer's readers, so
  /// that no entry it may read moves until it leaves.
  @inlinable
  func beginBroadcast() -> _BroadcastCursor<Payload> {
    lock.lock()
    let buffer = state.pointee.buffer
    buffer.header.pointee.readers += 1
    let cursor = _BroadcastCursor(
      buffer: buffer, position: 0, count: buffer.count, end: state.pointee.nextSequence)
    lock.unlock()
    return cursor
  }

  /// Ends a broadcast: leaves the buffer it was reading, and frees that
  /// buffer if it was replaced and this was its last reader.
  @inlinable
  func endBroadcast(_ cursor: _BroadcastCursor<Payload>) {
    lock.lock()
    let left = cursor.buffer
    left.readers -= 1
    let isUnread = left.base != state.pointee.buffer.base && detachIfUnread(left)
    lock.unlock()
    if isUnread { left.deallocate() }
  }

  /// Takes `buffer`, a replaced buffer, off the retired list if no broadcast
  /// reads it any more; call with the lock held, and free it after unlocking.
  ///
  /// Detaching it in the same critical section as its last reader's exit
  /// keeps every retired buffer read by someone, which the invariants check.
  @usableFromInline
  func detachIfUnread(_ buffer: Buffer) -> Bool {
    guard buffer.readers == 0,
      let index = state.pointee.retired.firstIndex(where: { $0.base == buffer.base })
    else { return false }
    state.pointee.retired.remove(at: index)
    return true
  }

  /// Moves `cursor` from a replaced buffer to the current one, at the first
  /// entry whose sequence is at least `sequence`.
  @usableFromInline
  func relocate(_ cursor: inout _BroadcastCursor<Payload>, to sequence: UInt64) {
    let left = cursor.buffer
    let end = cursor.end
    let (relocated, isUnread) = lock.withLock {
      left.readers -= 1
      let current = state.pointee.buffer
      current.readers += 1
      let relocated = _BroadcastCursor(
        buffer: current,
        position: current.position(ofFirst: sequence, below: current.count),
        count: current.position(ofFirst: end, below: current.count),
        end: end)
      return (relocated, detachIfUnread(left))
    }
    cursor = relocated
    if isUnread { left.deallocate() }
  }
}
