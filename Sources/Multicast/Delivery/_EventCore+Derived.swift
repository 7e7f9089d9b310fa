// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

extension _EventCore {
  /// Makes the core of an event derived from this one: while it has
  /// subscriptions, it holds one subscription here, made where no actor is,
  /// whose handler passes each value sent here to `forward`, with the
  /// derived core to send what it makes on.
  ///
  /// Every registration on the derived core connects it, before it returns
  /// (see ``_UpstreamLink/update()``); its last subscription gone
  /// disconnects it, through the owner's notice. A derived core replays
  /// when this one does: what `forward` made of the latest value.
  ///
  /// Who holds whom (see ``_UpstreamLink``): while subscribed, this core's
  /// registration holds the derived core, so that a derived event is kept
  /// by its subscriptions, not by the ``Event`` value that offered it, and
  /// the derived core holds this one weakly; while not subscribed, the
  /// derived core holds this one, to subscribe again. So no two cores ever
  /// hold each other: a sender released while a dead target still counts
  /// as the derived event's subscription (until a send would notice it)
  /// takes both cores with it.
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
      // The derived core connects from its registrations and notices, so it
      // is alive here: a strong reference, which the handler keeps, is taken from
      // the unowned one.
      let derived = derived
      // Registered with the latest value, if the source replays one.
      let registration = source.register(
        source, from: nil, handler: .value { value in forward(value, derived) },
        startingWith: nil
      ) { _ in }
      return EventSubscription(source: source, registration: registration, lifetime: .untilReleased)
    }
    return derived
  }

  /// Forgets the latest value of a derived core that replays: the value
  /// sent upstream made nothing to send here (a filter said no).
  @usableFromInline
  func forgetLatest() {
    guard replaysLatest else { return }
    let forgotten = withLock { latest.take() }
    withExtendedLifetime(forgotten) {}
  }
}

/// A derived event's subscription to the event it derives from: made by
/// its registrations, ended by its last-observer notice.
///
/// It holds the upstream core strongly only while it is not subscribed to
/// it; while subscribed, the upstream core holds the derived one (through
/// the registration's handler), and whoever sends to the upstream core
/// keeps it.
///
/// ``update()`` brings the subscription upstream in line with whether the
/// derived event has live subscriptions, under the link's lock: a
/// registration calls it before it returns, so a subscription, once made,
/// is connected; a last-observer notice that runs after a new subscription
/// was made finds it, and changes nothing. Subscribing and ending upstream
/// run user code (a replayed value reaching the derived event's handlers,
/// the upstream owner's notices) with the lock held; what that code does to
/// the link on the same thread is noted, and the update in progress looks
/// again before it unlocks.
final class _UpstreamLink: @unchecked Sendable {
  // @unchecked Sendable: `held`, `source`, `upstream` and `isStale` are read
  // and written only with `lock` held, and `holder` only atomically;
  // `subscribe`, `isObserved` and `forgetLatest` are set once, before the
  // link is shared. The derived-event tests subscribe and cancel from many
  // threads.

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

  /// Subscribes upstream when the derived event has live subscriptions and
  /// ends that subscription when it has none, until that holds.
  func update() {
    let thread = UInt64(_multicast_thread_number()) + 1
    if _multicast_load_relaxed(holder) == thread {
      // Called by code an update on this thread runs: it looks again.
      isStale = true
      return
    }
    lock.lock()
    _multicast_store_relaxed(holder, thread)
    repeat {
      isStale = false
      if isObserved() {
        // With no one left to send upstream, there is nothing to subscribe to.
        if upstream == nil, let source = held ?? source {
          upstream = subscribe(source)
          held = nil
        }
      } else if let ended = upstream.take() {
        // Held again first, so that ending the subscription, which may end
        // the upstream core's own subscriptions, leaves it alive to
        // subscribe again; ended before anything else subscribes, so that
        // no value reaches the derived event twice.
        held = source
        ended.cancel(isolation: nil)
        forgetLatest()
      }
    } while isStale
    _multicast_store_relaxed(holder, 0)
    lock.unlock()
  }
}
