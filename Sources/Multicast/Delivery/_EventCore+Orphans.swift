// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _EventCore {
  /// Ends the subscriptions of `orphans`, destinations whose actors are gone, which go
  /// with them (D7), in one pass, O(n + k), loading no target (D12), skipping those dropped.
  func drop(
    orphaned orphans: [_CoreState.Subscribed], _ state: inout Registry.State,
    _ garbage: inout Registry.Garbage
  ) {
    var marked = false
    for counted in orphans where state.guarded.lists(counted) {
      counted.isOrphaned = true
      marked = true
    }
    guard marked else { return }
    state.removeAll(&garbage, replacingPayloadsWith: _Subscriber.ended) { _, subscriber in
      subscriber.counted?._withUnsafeGuaranteedRef { $0.isOrphaned } ?? false
    }
    // Parked now, if not dropped with the others: dropped at once. (Each
    // is held by `orphans`, so that none is freed meanwhile.)
    for counted in orphans where counted.isOrphaned && state.guarded.lists(counted) {
      state.guarded.dropParked(Unmanaged.passUnretained(counted))
    }
  }

  /// Drops `orphans` with their subscriptions, in one change.
  func drop(orphaned orphans: [_CoreState.Subscribed]) {
    change(from: nil) { state, garbage in drop(orphaned: orphans, &state, &garbage) }
  }

  /// Drops the destinations `orphans`, found gone outside a section, in one change.
  func drop(orphaned orphans: [_Destination]) {
    change(from: nil) { state, garbage in
      let found = orphans.compactMap { orphan in
        state.guarded.subscribed(orphan.key).map { $0.takeUnretainedValue() }.flatMap {
          $0.destination === orphan ? $0 : nil
        }
      }
      drop(orphaned: found, &state, &garbage)
    }
  }
}
