// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

extension _Destination {
  /// The main actor's destination.
  static let main = _Destination(actor: MainActor.shared)

  /// The destination of work that awaits no actor (an `onActor` body that is
  /// isolated to none), delivered by a drain task on the global executor.
  static let unisolated = _Destination(actor: nil)

  private static let registry = _DestinationRegistry()

  /// The one destination of `actor`, made on first use; or, for `nil`,
  /// ``unisolated``.
  ///
  /// - Complexity: O(1) on average, with a process-wide lock held.
  static func of(_ actor: (any Actor)?) -> _Destination {
    guard let actor else { return unisolated }
    if actor === MainActor.shared { return main }
    return registry.destination(of: actor)
  }

  /// Every destination that work may wait on now.
  static var all: [_Destination] {
    [main, unisolated] + registry.destinations
  }
}

/// The destinations of actors other than the main actor, one per actor while
/// anything holds it; held weakly, as each holds its actor.
private final class _DestinationRegistry: @unchecked Sendable {
  // @unchecked Sendable: `entries` and `pruneAt` are read and written only
  // with `lock` held. The delivery tests make destinations from many tasks.

  private struct Entry {
    weak var destination: _Destination?
  }

  private let lock = _Lock(
    initializing: .allocate(byteCount: _Lock.byteCount, alignment: _Lock.alignment))
  private var entries: [ObjectIdentifier: Entry] = [:]
  /// The number of entries at which the ones whose destination is gone are
  /// dropped: twice the number left by the last pruning.
  private var pruneAt = 16

  func destination(of actor: any Actor) -> _Destination {
    let key = ObjectIdentifier(actor)
    return lock.withLock {
      // A destination whose actor died may share the key of a new actor at
      // the same address: it is replaced.
      if let existing = entries[key]?.destination, !existing.isOrphaned { return existing }
      let destination = _Destination(actor: actor)
      entries[key] = Entry(destination: destination)
      if entries.count >= pruneAt {
        entries = entries.filter { $0.value.destination != nil }
        pruneAt = Swift.max(16, 2 * entries.count)
      }
      return destination
    }
  }

  var destinations: [_Destination] {
    lock.withLock { entries.values.compactMap(\.destination) }
  }
}
