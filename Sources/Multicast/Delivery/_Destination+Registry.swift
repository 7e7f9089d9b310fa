// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

extension _Destination {
  static let main = _Destination(actor: MainActor.shared)

  /// Where `onActor` bodies of no actor run, drained on the global executor.
  static let unisolated = _Destination(actor: nil)

  private static let registry = _DestinationRegistry()

  /// The one destination of `actor`, made on first use, or ``unisolated``;
  /// O(1) on average, under a process-wide lock.
  static func of(_ actor: (any Actor)?) -> _Destination {
    guard let actor else { return unisolated }
    if actor === MainActor.shared { return main }
    return registry.destination(of: actor)
  }

  /// Every destination that work may wait on now: the actors', and the
  /// events' own destinations of no actor that handed work to a drain.
  static var all: [_Destination] {
    [main, unisolated] + registry.destinations
  }

  /// Notes that this event's own destination handed work to a drain.
  func noteDraining() {
    Self.registry.noteDraining(self)
  }
}

/// The destinations of actors other than the main actor, held weakly.
private final class _DestinationRegistry: @unchecked Sendable {
  // @unchecked Sendable: the stored vars are guarded by `lock`.

  private struct Entry {
    weak var destination: _Destination?
  }

  private let lock = _Lock(
    initializing: .allocate(byteCount: _Lock.byteCount, alignment: _Lock.alignment))
  private var entries: [ObjectIdentifier: Entry] = [:]
  /// The count at which entries whose destination is gone are pruned.
  private var pruneAt = 16
  /// Events' own destinations of no actor that handed work to a drain.
  private var draining: [ObjectIdentifier: Entry] = [:]
  private var pruneDrainingAt = 16

  func destination(of actor: any Actor) -> _Destination {
    let key = ObjectIdentifier(actor)
    return lock.withLock {
      // An orphaned destination at this key is a dead actor's: replaced (D7).
      if let existing = entries[key]?.destination, !existing.isOrphaned {
        _check(existing.serves(actor), "D7: a destination is given to another actor")
        return existing
      }
      let destination = _Destination(actor: actor)
      entries[key] = Entry(destination: destination)
      if entries.count >= pruneAt {
        entries = entries.filter { $0.value.destination != nil }
        pruneAt = Swift.max(16, 2 * entries.count)
      }
      return destination
    }
  }

  func noteDraining(_ destination: _Destination) {
    lock.withLock {
      draining[ObjectIdentifier(destination)] = Entry(destination: destination)
      if draining.count >= pruneDrainingAt {
        draining = draining.filter { $0.value.destination != nil }
        pruneDrainingAt = Swift.max(16, 2 * draining.count)
      }
    }
  }

  var destinations: [_Destination] {
    lock.withLock {
      entries.values.compactMap(\.destination) + draining.values.compactMap(\.destination)
    }
  }
}
