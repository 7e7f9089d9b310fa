// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What a derivation hears from its sources' cores.
protocol _SourceListener: AnyObject, Sendable {
  /// A source's value when the derivation subscribed to it, in that
  /// subscription's section, if the source knew it.
  func record(_ value: Any, at index: Int, through connection: UInt64)
  /// A source's change, delivered where no actor is; `core` is the derived value's.
  func forward(old: Any, new: Any, at index: Int, through connection: UInt64, core: AnyObject)
}

/// How a derivation handles one source's core, whose value it knows only as `Any`.
class _SourceKind: @unchecked Sendable {
  // @unchecked Sendable: no stored state.

  /// Subscribes `listener` to `core` from no actor, for `connection`, the handler holding
  /// `derived` as a derived event's subscription does; returns what is left to do, too.
  func register(
    _ listener: any _SourceListener, on core: AnyObject, at index: Int,
    through connection: UInt64, derived: AnyObject, into garbage: inout _SubscriberGarbage
  ) -> (_Registration, () -> Void) {
    preconditionFailure("a source kind is abstract")
  }

  /// Ends a subscription made by ``register(_:on:at:through:derived:into:)``, returning
  /// what is left to do.
  func unregister(
    _ registration: _Registration, on core: AnyObject, into garbage: inout _SubscriberGarbage
  ) -> () -> Void {
    preconditionFailure("a source kind is abstract")
  }

  /// The core's latest value, if it knows one.
  func latest(of core: AnyObject) -> Any? { preconditionFailure("a source kind is abstract") }
}

/// A ``_SourceKind`` whose core is an `_EventCore<(old: Value, new: Value)>`.
final class _ValueSourceKind<Value>: _SourceKind, @unchecked Sendable {
  // @unchecked Sendable: no stored state.
  typealias Core = _EventCore<(old: Value, new: Value)>

  override func register(
    _ listener: any _SourceListener, on core: AnyObject, at index: Int,
    through connection: UInt64, derived: AnyObject, into garbage: inout _SubscriberGarbage
  ) -> (_Registration, () -> Void) {
    let core = unsafeDowncast(core, to: Core.self)
    let handler = _Handler.value { change in
      let change = Core.value(at: change)
      listener.forward(
        old: change.old, new: change.new, at: index, through: connection, core: derived)
    }
    let (registration, followup) = core.register(
      core, from: nil, handler: handler, into: &garbage
    ) { _, _, _, latest in
      // Read in the section that orders it before every change forwarded.
      if let latest { listener.record(latest.new, at: index, through: connection) }
    }
    return (registration, { core.follow(followup, from: nil) })
  }

  override func unregister(
    _ registration: _Registration, on core: AnyObject, into garbage: inout _SubscriberGarbage
  ) -> () -> Void {
    let core = unsafeDowncast(core, to: Core.self)
    let (_, followup) = core.change(from: nil, into: &garbage) { state, garbage in
      state.removeRegistration(registration, &garbage, replacingPayloadWith: _Subscriber.ended)
    }
    return { core.follow(followup, from: nil) }
  }

  override func latest(of core: AnyObject) -> Any? {
    unsafeDowncast(core, to: Core.self).latestValue()?.new
  }
}

/// A weak reference, for a `Sendable` value: a source's core, a core a
/// stream follows, a derived value in its own closures.
struct _WeakReference: @unchecked Sendable {
  // @unchecked Sendable: `object` is set only in `init`, then only loaded;
  // weak loads are atomic.
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

/// How a derived value follows its sources while observed (README.md, section 4): their
/// changes reach ``forward(old:new:at:through:core:)`` where no actor is, in each source's
/// order, but from different sources on different threads at once.
final class _Derivation<Output>: _SourceListener, @unchecked Sendable {
  // @unchecked Sendable: every stored var is guarded by `lock`, but `registrations`, touched
  // only in the connecting and disconnecting the `_UpstreamLink` runs under its lock, and
  // `tellReaders`, set before the derivation is shared. Stress tests run under ThreadSanitizer.
  typealias Core = _EventCore<(old: Output, new: Output)>

  let transform: @Sendable ([Any]) -> Output
  private let kinds: [_SourceKind]
  /// Tells Observation's readers of the derived value, if it lives and was read, of a change.
  var tellReaders: @Sendable () -> Void = {}

  private let lock = _Lock(
    initializing: .allocate(byteCount: _Lock.byteCount, alignment: _Lock.alignment))
  /// The sources' cores, held while not connected, to connect again; only weakly while
  /// connected, since a subscription to a source holds the derived value's core.
  private var held: [AnyObject?]
  private let cores: [_WeakReference]
  /// The connection whose inputs these are, or `nil` while not connected.
  private var connection: UInt64?
  private var inputs: [Any?]
  /// How many changes of each source the inputs include.
  private var versions: [UInt64]
  /// The versions that made the derived core's latest value.
  private var committed: [UInt64]
  /// Whether the derived core has a latest value of `connection`.
  private var isStarted = false
  /// The subscriptions to the sources, by source.
  private var registrations: [_Registration?]

  init(
    sources: [(core: AnyObject, kind: _SourceKind)],
    transform: @escaping @Sendable ([Any]) -> Output
  ) {
    self.transform = transform
    kinds = sources.map(\.kind)
    held = sources.map(\.core)
    cores = sources.map { _WeakReference($0.core) }
    inputs = Array(repeating: nil, count: sources.count)
    versions = Array(repeating: 0, count: sources.count)
    committed = versions
    registrations = Array(repeating: nil, count: sources.count)
  }

  deinit {
    lock.destroy()
    lock.memory.deallocate()
  }

  @inline(__always)
  private func locked<Result>(_ body: () -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  // MARK: Connecting, under the link's lock

  /// Subscribes to every source that lives, for connection `number` (`first`, the link's,
  /// first); returns the first subscription, and what is left, the first value among it.
  func connect(
    _ first: AnyObject, _ number: UInt64, core: Core, into garbage: inout _SubscriberGarbage
  ) -> (_Registration, () -> Void) {
    var dropped: [Any?] = []
    let sources: [AnyObject?] = locked {
      connection = number
      isStarted = false
      var sources = held.indices.map { held[$0] ?? cores[$0].object }
      sources[0] = first
      held = Array(repeating: nil, count: held.count)
      for index in sources.indices where sources[index] != nil {
        // A source that is gone cannot change: its last input stays.
        dropped.append(inputs[index].take())
        versions[index] = 0
      }
      committed = versions
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
  func disconnect(into garbage: inout _SubscriberGarbage) -> () -> Void {
    let sources: [AnyObject?] = locked {
      connection = nil
      isStarted = false
      held = cores.map(\.object)
      return held
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
    let sources = locked { cores.map(\.object) }
    for source in sources {
      (source as? any _Closable)?.upstream?.update()
    }
    start(core)
  }

  // MARK: Inputs and changes

  func record(_ value: Any, at index: Int, through connection: UInt64) {
    locked {
      guard self.connection == connection, inputs[index] == nil else { return }
      inputs[index] = value
    }
  }

  /// Computes the current connection's first value, if the derived core has none, and makes
  /// it its latest, telling no one: no one subscribed can have heard another.
  func start(_ core: Core) {
    while true {
      var missing: [(index: Int, core: AnyObject)] = []
      let snapshot: (number: UInt64, inputs: [Any?], versions: [UInt64])? = locked {
        guard let connection, !isStarted else { return nil }
        for index in inputs.indices where inputs[index] == nil {
          if let core = cores[index].object { missing.append((index, core)) }
        }
        return (connection, inputs, versions)
      }
      guard let snapshot else { return }
      if !missing.isEmpty {
        // A derived source that started after its section was read.
        let read = missing.map { ($0.index, kinds[$0.index].latest(of: $0.core)) }
        let isComplete = locked {
          for (index, value) in read where connection == snapshot.number && inputs[index] == nil {
            inputs[index] = value
          }
          return inputs.allSatisfy { $0 != nil }
        }
        // A source that knows no value yet: its first change starts this one.
        guard isComplete else { return }
        continue
      }
      let value = transform(snapshot.inputs.map { $0.unsafelyUnwrapped })
      let isDone = locked {
        guard connection == snapshot.number, !isStarted else { return true }
        guard versions == snapshot.versions else { return false }
        isStarted = core.start(with: (old: value, new: value), through: snapshot.number)
        committed = versions
        return true
      }
      if isDone { return }
    }
  }

  func forward(old: Any, new: Any, at index: Int, through connection: UInt64, core: AnyObject) {
    let core = unsafeDowncast(core, to: Core.self)
    var replaced: Any? = nil
    let recorded: (version: UInt64, prior: Any)? = locked {
      guard self.connection == connection else { return nil }
      replaced = inputs[index].take()
      inputs[index] = new
      versions[index] &+= 1
      return (versions[index], replaced ?? old)
    }
    // Released with no lock held: it may be the last reference to an object.
    _ = consume replaced
    guard let recorded else { return }
    while true {
      let snapshot: (inputs: [Any], versions: [UInt64], isStarted: Bool)? = locked {
        guard self.connection == connection, committed[index] < recorded.version,
          inputs.allSatisfy({ $0 != nil })
        else { return nil }
        return (inputs.map { $0.unsafelyUnwrapped }, versions, isStarted)
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
      let outcome: Bool? = locked {
        guard self.connection == connection else { return nil }
        guard self.versions == versions, isStarted == (before == nil) else { return false }
        // In the core's section, which orders it among its changes (D4).
        let isPrepared = core.prepare(through: connection, into: local) { _, latest in
          change.old = latest?.new ?? before.unsafelyUnwrapped
          latest = (old: value, new: value)
          return change
        }
        guard isPrepared else { return nil }
        committed = versions
        isStarted = true
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
