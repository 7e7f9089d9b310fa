// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

extension _EventCore {
  /// Makes the core of an event derived from this one: while it has
  /// subscriptions, it holds one here, made where no actor is, whose
  /// handler passes each value to `forward` with the derived core.
  ///
  /// Its registrations connect it before they return, its last-observer
  /// notice disconnects it (D11); it replays when this core does. Who holds
  /// whom is in README.md, section 4, "How do derived events connect":
  /// never both ways.
  @usableFromInline
  func derive<Output>(
    _ forward: @escaping @Sendable (UnsafeRawPointer, _EventCore<Output>) -> Void
  ) -> _EventCore<Output> {
    let link = _UpstreamLink(source: self)
    let derived = _EventCore<Output>(
      owner: nil, onFirstObserver: nil, onLastObserverGone: { link.update() },
      replaysLatest: replaysLatest, upstream: link)
    link.isObserved = { [unowned derived] in derived.hasObservers }
    link.forgetLatest = { [unowned derived] in derived.forgetLatest() }
    link.subscribe = { [unowned(unsafe) derived] source in
      // Only this core is ever the link's source.
      let source = unsafeDowncast(source, to: _EventCore<Value>.self)
      // Alive here, since it connects from its own registrations: the
      // handler keeps a strong reference.
      let derived = derived
      let registration = source.register(
        source, from: nil, handler: .value { value in forward(value, derived) },
        startingWithLatest: false
      ) { _ in }
      return EventSubscription(source: source, registration: registration, lifetime: .untilReleased)
    }
    return derived
  }

  /// Forgets a derived core's latest value: the value sent upstream made
  /// nothing to send here (a filter said no).
  @usableFromInline
  func forgetLatest() {
    guard replaysLatest else { return }
    let forgotten = withLatest { _, latest in latest.take() }
    withExtendedLifetime(forgotten) {}
  }
}

/// A derived event's subscription to the event it derives from, which it
/// holds strongly only while not subscribed to it (D11).
final class _UpstreamLink: @unchecked Sendable {
  // @unchecked Sendable: `held`, `source`, `upstream` and `isStale` are
  // guarded by `lock`, `holder` is atomic; the closures are set once, before
  // the link is shared.

  /// Subscribes to the upstream core it is given.
  var subscribe: (AnyObject) -> EventSubscription = { _ in
    preconditionFailure("an upstream link was not set")
  }
  /// Whether the derived event has live subscriptions.
  var isObserved: () -> Bool = { true }
  /// Drops the derived event's latest value, if it keeps one.
  var forgetLatest: () -> Void = {}
  private let lock = _Lock(
    initializing: .allocate(byteCount: _Lock.byteCount, alignment: _Lock.alignment))
  /// The number, plus one, of the thread holding the lock, or 0.
  private let holder = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
  /// Whether code the update in progress ran asked for another update.
  private var isStale = false
  /// The upstream core, held while not subscribed to it.
  private var held: AnyObject?
  /// The upstream core, while anything holds it.
  private weak var source: AnyObject?
  /// The subscription upstream, while the derived event has subscriptions.
  private var upstream: EventSubscription?

  init(source: AnyObject) {
    held = source
    self.source = source
    holder.initialize(to: 0)
  }

  deinit {
    lock.destroy()
    lock.memory.deallocate()
    holder.deallocate()
  }

  /// Subscribes upstream while the derived event has live subscriptions,
  /// and ends that subscription when it has none (D11).
  func update() {
    let thread = UInt64(_multicast_thread_number()) + 1
    if _multicast_load_relaxed(holder) == thread {
      // Called by user code that an update on this thread runs: it looks again.
      isStale = true
      return
    }
    lock.lock()
    _multicast_store_relaxed(holder, thread)
    repeat {
      isStale = false
      let observed = isObserved()
      if observed {
        // With no one left to send upstream, there is nothing to subscribe to.
        if upstream == nil, let source = held ?? source {
          upstream = subscribe(source)
          held = nil
        }
      } else if let ended = upstream.take() {
        // Held first, to subscribe again; ended under the lock, so that no
        // value reaches the derived event twice.
        held = source
        ended.cancel(isolation: nil)
        forgetLatest()
      }
      #if MULTICAST_INTERNAL_CHECKS
      precondition(
        observed ? upstream != nil || (held == nil && source == nil) : upstream == nil,
        "D11: a derived event's connection upstream does not follow its subscriptions")
      precondition(upstream == nil || held == nil, "D11: a link holds the core it is subscribed to")
      #endif
    } while isStale
    _multicast_store_relaxed(holder, 0)
    lock.unlock()
  }
}
