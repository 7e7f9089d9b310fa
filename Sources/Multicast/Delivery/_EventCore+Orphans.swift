// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _EventCore {
  /// Ends the subscriptions of `orphans`, destinations whose actors are
  /// gone, which goes with them (D7): in one pass over the registrations,
  /// however many they are, loading no target (D12).
  ///
  /// - Complexity: O(n + k), where n is the number of registrations and k
  ///   of orphans.
  func drop(
    orphaned orphans: [_Destination], _ state: inout Registry.State,
    _ garbage: inout Registry.Garbage
  ) {
    // Held here: the removals below may drop a parked one meanwhile.
    var marked: [_CoreState.Subscribed] = []
    for orphan in orphans {
      guard let counted = state.guarded.subscribed(orphan.key)?.takeUnretainedValue(),
        counted.destination === orphan
      else { continue }
      counted.isOrphaned = true
      marked.append(counted)
    }
    guard !marked.isEmpty else { return }
    state.removeAll(&garbage, replacingPayloadsWith: _Subscriber.ended) { _, subscriber in
      subscriber.counted?._withUnsafeGuaranteedRef { $0.isOrphaned } ?? false
    }
    // Parked now, if not dropped with the others: dropped at once.
    for counted in marked where state.guarded.lists(counted) {
      state.guarded.dropParked(Unmanaged.passUnretained(counted))
    }
  }

  /// Drops `orphans`, destinations whose actors are gone, with their
  /// subscriptions, in one change.
  func drop(orphaned orphans: [_Destination]) {
    change(from: nil) { state, garbage in drop(orphaned: orphans, &state, &garbage) }
  }
}
