// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// The sending side of an event: what its owner keeps private.
///
/// An `EventSender` is for closures what ``MulticastDelegate`` is for
/// protocols. The owner keeps the sender, exposes its ``event``, and alone
/// can ``send(_:isolation:)``:
///
/// ```swift
/// final class Metronome {
///   private let tick = EventSender<Int>()
///   var ticks: Event<Int> { tick.event }  // subscribers can observe, not send
///
///   func beat(_ count: Int) { tick.send(count) }
/// }
///
/// let metronome = Metronome()
/// let subscription = metronome.ticks.observe { print("tick", $0) }
/// metronome.beat(1)  // prints "tick 1"
/// ```
///
/// # The same contract
///
/// Subscriptions live in the same storage as a multicast delegate's
/// observers and keep its contract: they are called in the order they were
/// made; each is held as long as its token or its target lives, never longer;
/// a subscription made or ended during a delivery follows the re-entrancy
/// rules of ``MulticastDelegate``; and no lock is held while handlers run.
/// Sending with no subscriber takes an uncontended lock and allocates
/// nothing.
///
/// # Knowing when anyone listens
///
/// The owner can start work only while someone listens: `onFirstObserver`
/// runs when the event goes from no subscription to one, and
/// `onLastObserverGone` when the last one ends. A subscription ends when it is
/// cancelled, when its token is released, or when its target dies. A target
/// that dies is noticed at the next ``send(_:isolation:)``, since nothing tells the
/// event of a death until it looks.
///
/// Each transition is noticed exactly once, and the notices run one at a time
/// in the order of the transitions, so they always alternate. A notice that
/// subscribes or cancels runs to its end before the notice it causes begins.
/// Capture the owner weakly in these closures: the sender keeps them.
///
/// # Actors and threads
///
/// When `Value` is `Sendable`, so are `EventSender` and ``Event``, and a
/// ``EventSubscription`` always is: an actor can keep the sender, offer the event
/// to a main-actor view model, and send from any task. Each subscription
/// keeps the isolation it was made from (the main actor, a global actor, an
/// actor instance, or none), and its handler runs there, so a main-actor
/// view model subscribes with closures that touch its state:
///
/// - A send calls the subscriptions of the isolation it runs on before it
///   returns, after anything still waiting for that actor. Where the
///   compiler does not know the caller's actor (`#isolation` is `nil` in a
///   nonisolated method), the concurrency runtime is asked.
/// - A send made by a handler, during a delivery on that isolation, goes
///   after the delivery in progress, before the outer send returns: every
///   subscriber hears the values in the order they were sent.
/// - For subscriptions made on another actor, it queues the value in that
///   actor's one queue, which every subject and face shares; that actor
///   hears what one place sent in the order it was sent, whatever the
///   priorities of the tasks that sent it. A target is held weakly while values wait
///   for it, and one released before its turn is not called. An actor
///   target is the exception: a delivery on its way to the actor holds it
///   until it runs there (running on an actor takes a reference to it), so
///   an actor released while it is busy may still hear, in order, values
///   sent before; it is released once they are delivered.
/// - Subscriptions made where no actor is are called one send at a time, in
///   order, on a sending thread or a drain task. A send to them returns
///   before they hear its value when another thread is delivering to them:
///   that thread delivers it, in order, or hands it to a drain task once its
///   own work is done (<doc:TheContract#Threads> states the bound).
/// - An actor subscribes as a weak target with ``Event/observe(actor:delivering:_:)``,
///   whose handler gets the actor isolated; a closure that touches the
///   actor's state captures it, and keeps it alive at least as long as the
///   subscription lasts.
/// - The notices run on the isolation the sender was made on: at once when
///   the change is made there (after any notices still waiting for it),
///   otherwise queued for that actor, in order.
///
/// Code isolated to no actor has none to hand values to: a handler it
/// subscribes runs on whichever thread sends, so let it touch only `Sendable`
/// state, or subscribe from an actor.
///
/// With a value that is not `Sendable`, the event stays in one isolation
/// domain, and its sends reach every subscription before they return.
public final class EventSender<Value> {
  @usableFromInline let core: _EventCore<Value>

  /// Creates a sender with no subscribers.
  public init() {
    core = _EventCore(owner: nil, onFirstObserver: nil, onLastObserverGone: nil)
  }

  /// Creates a sender with no subscribers that, if asked, replays its
  /// latest value to each new subscription.
  ///
  /// A sender that replays keeps the value it sent last, and a new
  /// subscription hears it first, then every value sent after it: the value
  /// is taken in the same step that subscribes, so none is missed or heard
  /// twice in between, even while other threads send. It is delivered as a
  /// send would be: before `observe` returns when the subscription is made
  /// where nothing else is being delivered to it, otherwise in its place.
  /// Every way to subscribe replays, ``Event/observeOnce(isolation:_:)``
  /// (which then hears only it) and ``Event/values`` included; so do events
  /// derived with ``Event/map(_:)`` and its kin, which hand a new
  /// subscription what their transform makes of the latest value (nothing,
  /// if `filter` rejects it).
  ///
  /// ```swift
  /// let status = EventSender<String>(replaysLatest: true)
  /// status.send("connecting")
  /// let shown = status.event.observe { print($0) }  // prints "connecting"
  /// ```
  ///
  /// The latest value stays alive, held by the sender, until another
  /// replaces it: replaying is off by default for that reason.
  ///
  /// - Parameter replaysLatest: Whether new subscriptions hear the value
  ///   sent last, if any.
  public init(replaysLatest: Bool) {
    core = _EventCore(
      owner: nil, onFirstObserver: nil, onLastObserverGone: nil, replaysLatest: replaysLatest)
  }

  /// Creates a sender with no subscribers that tells its owner when the
  /// event gains its first subscription and loses its last.
  ///
  /// The notices run on the isolation this is called from.
  ///
  /// In Swift 5 language mode, with minimal or targeted concurrency checking,
  /// make such a sender in an actor's `init` or methods, not in the
  /// initializer of one of its properties: the compiler (through at least
  /// Swift 6.3) crashes on a `#isolation` default argument there. Swift 6
  /// mode and complete checking are not affected, nor is ``init()``.
  ///
  /// - Parameters:
  ///   - replaysLatest: Whether new subscriptions hear the value sent last,
  ///     if any, as with ``init(replaysLatest:)``.
  ///   - isolation: The caller's isolation, where the notices run; leave the
  ///     default.
  ///   - onFirstObserver: Runs when the event goes from no subscription to
  ///     one.
  ///   - onLastObserverGone: Runs when the last subscription ends: cancelled,
  ///     released, or (noticed at the next send) its target died.
  public init(
    replaysLatest: Bool = false, isolation: isolated (any Actor)? = #isolation,
    onFirstObserver: (() -> Void)? = nil, onLastObserverGone: (() -> Void)? = nil
  ) {
    core = _EventCore(
      owner: isolation, onFirstObserver: onFirstObserver, onLastObserverGone: onLastObserverGone,
      replaysLatest: replaysLatest)
  }

  deinit {
    // Nothing can send again: the event's streams end once they have read
    // what was sent before.
    core.close()
  }

  /// The event to expose to subscribers: it can be observed, never sent.
  public var event: Event<Value> { Event(core: core) }

  /// Calls every subscription with `value`, in the order they were made.
  ///
  /// Subscriptions made on the isolation the caller runs on are called before
  /// this returns, after anything still waiting for that actor; so are those
  /// made where no actor is, with one exception. A send to subscriptions made
  /// where no actor is returns before they hear its value when another
  /// thread is delivering to them: that thread delivers it, in order, or
  /// hands it to a drain task once its own work is done. For subscriptions
  /// made on another
  /// actor the value is queued, and delivered there in the order values
  /// were sent. A send made by a handler during a delivery goes after it.
  ///
  /// - Parameters:
  ///   - value: The value to deliver.
  ///   - isolation: The caller's isolation; leave the default.
  /// - Complexity: O(n), where n is the number of subscriptions, plus O(a),
  ///   where a is the number of actors subscriptions were made on. A value
  ///   queued for another actor is copied once per actor; a task is made
  ///   when that actor's queue was idle.
  @inlinable
  public func send(_ value: Value, isolation: isolated (any Actor)? = #isolation) {
    core.send(value, from: isolation)
  }

  /// Ends every subscription.
  ///
  /// A delivery under way does not reach the subscriptions it has not
  /// reached yet, as with any cancellation. `onLastObserverGone` runs if any
  /// subscription was alive.
  ///
  /// - Parameter isolation: The caller's isolation; leave the default.
  /// - Complexity: O(n), where n is the number of subscriptions.
  public func removeAllObservers(isolation: isolated (any Actor)? = #isolation) {
    core.unsubscribeAll(from: isolation)
  }

  /// Whether any subscription is alive.
  ///
  /// - Complexity: O(1) when a live subscription comes early in the order;
  ///   O(n) otherwise.
  public var hasObservers: Bool { core.hasObservers }
}

extension EventSender where Value == Void {
  /// Calls every subscription, in the order they were made.
  ///
  /// - Parameter isolation: The caller's isolation; leave the default.
  /// - Complexity: O(n), where n is the number of subscriptions.
  @inlinable
  public func send(isolation: isolated (any Actor)? = #isolation) {
    send((), isolation: isolation)
  }
}

extension EventSender: Sendable where Value: Sendable {}
