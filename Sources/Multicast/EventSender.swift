// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// The sending side of an event: what its owner keeps private.
///
/// An `EventSender` is for closures what ``MulticastDelegate`` is for
/// protocols. The owner keeps the sender, exposes its ``event``, and alone
/// can ``send(_:)``:
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
/// Sending with no subscriber takes an uncontended lock twice and allocates
/// nothing.
///
/// # Knowing when anyone listens
///
/// The owner can start work only while someone listens: `onFirstObserver`
/// runs when the event goes from no subscription to one, and
/// `onLastObserverGone` when the last one ends. A subscription ends when it is
/// cancelled, when its token is released, or when its target dies. A target
/// that dies is noticed at the next ``send(_:)``, since nothing tells the
/// event of a death until it looks.
///
/// Each transition is noticed exactly once, and the notices run one at a time
/// in the order of the transitions, so they always alternate. A notice that
/// subscribes or cancels runs to its end before the notice it causes begins.
/// Capture the owner weakly in these closures: the sender keeps them.
///
/// # Threads
///
/// `EventSender`, ``Event`` and ``Subscription`` are not `Sendable`. Their
/// handlers are ordinary closures that run where the value is sent, so that
/// code on the main actor can subscribe with closures that touch main-actor
/// state. Keep an event and its subscribers in one isolation domain. To hand
/// values to other tasks, iterate ``Event/values``; to broadcast across threads,
/// use a ``MulticastDelegate`` whose observer protocol is `Sendable`.
public final class EventSender<Value> {
  let core: _EventCore<Value>

  /// Creates a sender with no subscribers.
  ///
  /// - Parameters:
  ///   - onFirstObserver: Runs when the event goes from no subscription to
  ///     one.
  ///   - onLastObserverGone: Runs when the last subscription ends: cancelled,
  ///     released, or (noticed at the next send) its target died.
  public init(
    isolation: isolated (any Actor)? = #isolation,
    onFirstObserver: (() -> Void)? = nil, onLastObserverGone: (() -> Void)? = nil
  ) {
    core = _EventCore(
      owner: isolation, onFirstObserver: onFirstObserver, onLastObserverGone: onLastObserverGone)
  }

  /// The event to expose to subscribers: it can be observed, never sent.
  public var event: Event<Value> { Event(core: core) }

  /// Calls every subscription with `value`, in the order they were made.
  ///
  /// - Parameter value: The value to deliver.
  /// - Complexity: O(n), where n is the number of subscriptions.
  public func send(_ value: Value, isolation: isolated (any Actor)? = #isolation) {
    core.send(value, from: isolation)
  }

  /// Ends every subscription.
  ///
  /// A delivery under way does not reach the subscriptions it has not
  /// reached yet, as with any cancellation. `onLastObserverGone` runs if any
  /// subscription was alive.
  ///
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
  /// - Complexity: O(n), where n is the number of subscriptions.
  public func send(isolation: isolated (any Actor)? = #isolation) {
    send((), isolation: isolation)
  }
}

extension EventSender: Sendable where Value: Sendable {}
