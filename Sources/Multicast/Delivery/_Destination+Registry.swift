// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

extension _Destination {
  static let main = _Destination(actor: MainActor.shared)

  /// Where `onActor` bodies of no actor run, drained on the global executor.
  static let unisolated = _Destination(actor: nil)

  private static let registry = Registry()

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

  /// The destinations of actors other than the main actor, held weakly.
  private final class Registry: @unchecked Sendable {
    // @unchecked Sendable: its state is reached only with its lock held.

    private struct Entry {
      weak var destination: _Destination?
    }

    private struct State {
      var entries: [ObjectIdentifier: Entry] = [:]
      /// The count at which entries whose destination is gone are pruned.
      var pruneAt = 16
      /// Events' own destinations of no actor that handed work to a drain.
      var draining: [ObjectIdentifier: Entry] = [:]
      var pruneDrainingAt = 16
    }

    private let state = _Locked(State())

    func destination(of actor: any Actor) -> _Destination {
      let key = ObjectIdentifier(actor)
      return state.withLock { state in
        // An orphaned destination at this key is a dead actor's: replaced (D7).
        if let existing = state.entries[key]?.destination, !existing.isOrphaned {
          _check(existing.serves(actor), "D7: a destination is given to another actor")
          return existing
        }
        let destination = _Destination(actor: actor)
        state.entries[key] = Entry(destination: destination)
        if state.entries.count >= state.pruneAt {
          state.entries = state.entries.filter { $0.value.destination != nil }
          state.pruneAt = Swift.max(16, 2 * state.entries.count)
        }
        return destination
      }
    }

    func noteDraining(_ destination: _Destination) {
      state.withLock { state in
        state.draining[ObjectIdentifier(destination)] = Entry(destination: destination)
        if state.draining.count >= state.pruneDrainingAt {
          state.draining = state.draining.filter { $0.value.destination != nil }
          state.pruneDrainingAt = Swift.max(16, 2 * state.draining.count)
        }
      }
    }

    var destinations: [_Destination] {
      state.withLock { state in
        state.entries.values.compactMap(\.destination)
          + state.draining.values.compactMap(\.destination)
      }
    }
  }
}
