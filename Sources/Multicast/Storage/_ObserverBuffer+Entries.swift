// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// Writing entries and keeping the index up to date (I10), with the lock held.

extension _ObserverBuffer {
  /// Appends a registration to the buffer, which must not be full.
  func append(
    _ object: AnyObject, isHost: Bool = false, payload: consuming Payload, stamp: _EntryStamp
  ) {
    let position = count
    precondition(position < capacity, "appending to a full buffer")
    entry(at: position).initialize(
      to: isHost
        ? _ObserverEntry(hostKey: ObjectIdentifier(object)) : _ObserverEntry(object: object))
    self.payload(at: position).initialize(to: consume payload)
    stamps[position] = stamp.rawValue
    index.insert(entries[position].key, at: position)
    count = position + 1
  }

  /// Appends a copy of `other`'s registration at `position`: `other` may still be read.
  func appendCopy(of position: Int, in other: _ObserverBuffer) {
    let destination = count
    precondition(destination < capacity, "appending to a full buffer")
    entry(at: destination).initialize(to: other.entry(at: position).pointee)
    payload(at: destination).initialize(to: other.payload(at: position).pointee)
    stamps[destination] = other.stamp(at: position).rawValue
    index.insert(entries[destination].key, at: destination)
    count = destination + 1
  }

  /// Moves `other`'s registration at `position` here bitwise: no one reads `other`.
  func appendMoving(_ position: Int, of other: _ObserverBuffer) {
    let destination = count
    precondition(destination < capacity, "appending to a full buffer")
    entry(at: destination).initialize(to: other.entry(at: position).move())
    payload(at: destination).initialize(to: other.payload(at: position).move())
    stamps[destination] = other.stamp(at: position).rawValue
    index.insert(entries[destination].key, at: destination)
    count = destination + 1
  }

  /// Moves `source` down to the free `destination` in an unread buffer; then ``refileAll()``.
  func move(_ source: Int, to destination: Int) {
    assert(destination < source, "moving entry \(source) up to \(destination)")
    entry(at: destination).initialize(to: entry(at: source).move())
    payload(at: destination).initialize(to: payload(at: source).move())
    stamps[destination] = stamps[source]
  }

  /// Takes the entry at `position` out of the index, as it is removed.
  func unfile(at position: Int) {
    index.remove(entry(at: position).pointee.key, in: entries)
  }

  /// Files every registered entry anew, after entries moved.
  func refileAll() {
    index.removeAll()
    for position in 0..<count where !stamp(at: position).isRemoved {
      index.insert(entries[position].key, at: position)
    }
  }

  /// The first position below `count` whose sequence is at least `sequence`.
  @inlinable
  func position(ofFirst sequence: UInt64, below count: Int) -> Int {
    var (low, high) = (0, count)
    while low < high {
      let middle = (low + high) / 2
      if stamp(at: middle).sequence < sequence {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }
}

extension _ObserverBuffer where Index == _PositionIndex {
  /// The position of the entry filed under `key`, if any: alive or dead.
  func position(of key: ObjectIdentifier) -> Int? {
    index.position(of: key, in: entries)
  }
}
