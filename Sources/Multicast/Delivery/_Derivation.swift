// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// How a derived value follows its sources while observed (README.md, section 4): their
/// changes reach ``forward(old:new:at:through:core:)`` where no actor is, in each source's
/// order, but from different sources on different threads at once.
final class _Derivation<Output>: _SourceListener, @unchecked Sendable {
  // @unchecked Sendable: its state is reached only with its lock held; `registrations` only
  // in the connecting and disconnecting the `_UpstreamLink` runs under its lock; `tellReaders`
  // is set before the derivation is shared. Stress tests run under ThreadSanitizer.
  typealias Core = _EventCore<(old: Output, new: Output)>

  let transform: @Sendable ([Any]) -> Output
  private let kinds: [_SourceKind]
  /// Tells Observation's readers of the derived value, if it lives and was read, of a change.
  var tellReaders: @Sendable () -> Void = {}

  private let cores: [_WeakReference]
  private struct State {
    /// The sources' cores, held while not connected, to connect again; only weakly while
    /// connected, since a subscription to a source holds the derived value's core.
    var held: [AnyObject?]
    /// The connection whose inputs these are, or `nil` while not connected.
    var connection: UInt64?
    var inputs: [Any?]
    /// How many changes of each source the inputs include.
    var versions: [UInt64]
    /// The versions that made the derived core's latest value.
    var committed: [UInt64]
    /// Whether the derived core has a latest value of `connection`.
    var isStarted = false
  }
  private let state: _Locked<State>
  /// The subscriptions to the sources, by source, guarded by the link's lock.
  private var registrations: [_Registration?]

  init(
    sources: [(core: AnyObject, kind: _SourceKind)],
    transform: @escaping @Sendable ([Any]) -> Output
  ) {
    self.transform = transform
    kinds = sources.map(\.kind)
    cores = sources.map { _WeakReference($0.core) }
    let versions = [UInt64](repeating: 0, count: sources.count)
    state = _Locked(
      State(
        held: sources.map(\.core), inputs: Array(repeating: nil, count: sources.count),
        versions: versions, committed: versions))
    registrations = Array(repeating: nil, count: sources.count)
  }

  // MARK: Connecting, under the link's lock

  /// Subscribes to every source that lives, for connection `number` (`first`, the link's,
  /// first); returns the first subscription, and what is left, the first value among it.
  func connect(
    _ first: AnyObject, _ number: UInt64, core: Core, into garbage: inout _CoreState.Garbage
  ) -> (_Registration, () -> Void) {
    var dropped: [Any?] = []
    let sources: [AnyObject?] = state.withLock { state in
      state.connection = number
      state.isStarted = false
      var sources = state.held.indices.map { state.held[$0] ?? cores[$0].object }
      sources[0] = first
      state.held = Array(repeating: nil, count: state.held.count)
      for index in sources.indices where sources[index] != nil {
        // A source that is gone cannot change: its last input stays.
        dropped.append(state.inputs[index].take())
        state.versions[index] = 0
      }
      state.committed = state.versions
      return sources
    }
    var followups: [() -> Void] = []
    for (index, source) in sources.enumerated() {
      guard let source else { continue }
      let (registration, followup) = kinds[index].register(
        self, on: source, at: index, through: number, derived: core, into: &garbage)
      registrations[index] = registration
      followups.append(followup)
    }
    return (
      registrations[0].unsafelyUnwrapped,
      { [self] in
        // Keeps the inputs let go of, released with this followup, after the
        // link's lock (D12).
        withExtendedLifetime(dropped) {}
        for followup in followups { followup() }
        connectFurther(core)
      }
    )
  }

  /// Ends the subscriptions to the sources and holds them again, returning what is left.
  func disconnect(into garbage: inout _CoreState.Garbage) -> () -> Void {
    let sources: [AnyObject?] = state.withLock { state in
      state.connection = nil
      state.isStarted = false
      state.held = cores.map(\.object)
      return state.held
    }
    var followups: [() -> Void] = []
    for index in registrations.indices {
      guard let registration = registrations[index].take(), let source = sources[index] else {
        continue
      }
      followups.append(kinds[index].unregister(registration, on: source, into: &garbage))
    }
    return { for followup in followups { followup() } }
  }

  /// Has each derived source connect, as another thread may not have yet, then computes
  /// the first value, if none is known.
  func connectFurther(_ core: Core) {
    let sources = cores.map(\.object)
    for source in sources {
      (source as? any _Closable)?.upstream?.update()
    }
    start(core)
  }

  // MARK: Inputs and changes

  func record(_ value: Any, at index: Int, through connection: UInt64) {
    state.withLock { state in
      guard state.connection == connection, state.inputs[index] == nil else { return }
      state.inputs[index] = value
    }
  }

  /// Computes the current connection's first value, if the derived core has none, and makes
  /// it its latest, telling no one: no one subscribed can have heard another.
  func start(_ core: Core) {
    while true {
      var missing: [(index: Int, core: AnyObject)] = []
      let snapshot: (number: UInt64, inputs: [Any?], versions: [UInt64])? = state.withLock {
        state in
        guard let connection = state.connection, !state.isStarted else { return nil }
        for index in state.inputs.indices where state.inputs[index] == nil {
          if let core = cores[index].object { missing.append((index, core)) }
        }
        return (connection, state.inputs, state.versions)
      }
      guard let snapshot else { return }
      if !missing.isEmpty {
        // A derived source that started after its section was read.
        let read = missing.map { ($0.index, kinds[$0.index].latest(of: $0.core)) }
        let isComplete = state.withLock { state in
          for (index, value) in read
          where state.connection == snapshot.number && state.inputs[index] == nil {
            state.inputs[index] = value
          }
          return state.inputs.allSatisfy { $0 != nil }
        }
        // A source that knows no value yet: its first change starts this one.
        guard isComplete else { return }
        continue
      }
      let value = transform(snapshot.inputs.map { $0.unsafelyUnwrapped })
      let isDone = state.withLock { state in
        guard state.connection == snapshot.number, !state.isStarted else { return true }
        guard state.versions == snapshot.versions else { return false }
        state.isStarted = core.start(with: (old: value, new: value), through: snapshot.number)
        state.committed = state.versions
        return true
      }
      if isDone { return }
    }
  }

  func forward(old: Any, new: Any, at index: Int, through connection: UInt64, core: AnyObject) {
    let core = unsafeDowncast(core, to: Core.self)
    var replaced: Any? = nil
    let recorded: (version: UInt64, prior: Any)? = state.withLock { state in
      guard state.connection == connection else { return nil }
      replaced = state.inputs[index].take()
      state.inputs[index] = new
      state.versions[index] &+= 1
      return (state.versions[index], replaced ?? old)
    }
    // Released with no lock held: it may be the last reference to an object.
    _ = consume replaced
    guard let recorded else { return }
    while true {
      let snapshot: (inputs: [Any], versions: [UInt64], isStarted: Bool)? = state.withLock {
        state in
        guard state.connection == connection, state.committed[index] < recorded.version,
          state.inputs.allSatisfy({ $0 != nil })
        else { return nil }
        return (state.inputs.map { $0.unsafelyUnwrapped }, state.versions, state.isStarted)
      }
      // Ended, included in a later change, or waiting for a source's value.
      guard let snapshot else { return }
      let value = transform(snapshot.inputs)
      var before: Output? = nil
      if !snapshot.isStarted {
        // No latest value: the one before is made from the inputs before.
        var inputs = snapshot.inputs
        inputs[index] = recorded.prior
        before = transform(inputs)
      }
      if commit(value, before: before, through: connection, snapshot.versions, core) { return }
    }
  }

  /// Sends the change to `value` on `core` if the inputs are still those of `versions`
  /// (`before`: the value before, if the core has none); `false` if not: compute again.
  private func commit(
    _ value: Output, before: Output?, through connection: UInt64, _ versions: [UInt64],
    _ core: Core
  ) -> Bool {
    withUnsafeTemporaryAllocation(of: _LocalSend.self, capacity: 1) { slot in
      let local = slot.baseAddress.unsafelyUnwrapped
      var change = (old: value, new: value)
      // `nil`: the connection ended, and with it the change.
      let outcome: Bool? = state.withLock { state in
        guard state.connection == connection else { return nil }
        guard state.versions == versions, state.isStarted == (before == nil) else { return false }
        // In the core's section, which orders it among its changes (D4).
        let isPrepared = core.prepare(through: connection, into: local) { _, latest in
          change.old = latest?.new ?? before.unsafelyUnwrapped
          latest = (old: value, new: value)
          return change
        }
        guard isPrepared else { return nil }
        state.committed = versions
        state.isStarted = true
        return true
      }
      guard let outcome else { return true }
      guard outcome else { return false }
      tellReaders()
      core.deliver(local, change)
      return true
    }
  }
}
