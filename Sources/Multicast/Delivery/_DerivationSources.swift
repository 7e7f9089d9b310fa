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
    through connection: UInt64, derived: AnyObject, into garbage: inout _CoreState.Garbage
  ) -> (_Registration, () -> Void) {
    preconditionFailure("a source kind is abstract")
  }

  /// Ends a subscription made by ``register(_:on:at:through:derived:into:)``, returning
  /// what is left to do.
  func unregister(
    _ registration: _Registration, on core: AnyObject, into garbage: inout _CoreState.Garbage
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
    through connection: UInt64, derived: AnyObject, into garbage: inout _CoreState.Garbage
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
    _ registration: _Registration, on core: AnyObject, into garbage: inout _CoreState.Garbage
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
