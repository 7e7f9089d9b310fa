// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// An event that can be observed: what the owner of an ``EventSender`` exposes.
///
/// An `Event` offers ways to subscribe and none to send, so only the owner
/// of the sender can send. Subscribe with a closure and keep the returned
/// ``EventSubscription``, bind a method of an object that should hear the event for
/// as long as it lives, or iterate ``values``:
///
/// ```swift
/// let subscription = metronome.ticks.observe { print("tick", $0) }
/// metronome.ticks.observe(self, TickView.didTick)   // until self dies
/// metronome.ticks.observe(self) { me, count in me.show(count) }
/// for await count in metronome.ticks.values { ... }  // until the sender goes
/// ```
///
/// A target is held weakly, and its subscription lasts while it lives; so a
/// target that subscribes from its own `deinit` is not subscribed, since an
/// object being deinitialized can no longer be referenced weakly.
///
/// An `Event` is `Sendable` when its value is: hand it to any actor or task,
/// and subscribe there. Each subscription's handler runs on the isolation it
/// was made from.
///
/// See ``EventSender`` for the contract, the owner's notices and threads.
public struct Event<Value> {
  @usableFromInline let core: _EventCore<Value>

  /// The event whose subscriptions `core` keeps.
  @usableFromInline init(core: _EventCore<Value>) {
    self.core = core
  }

  /// Calls `handler` with every value sent, for as long as you keep the
  /// returned subscription.
  ///
  /// `handler` runs on the isolation this is called from: a main-actor view
  /// model's handler runs on the main actor, whoever sends. See
  /// <doc:Concurrency>.
  ///
  /// - Parameters:
  ///   - policy: Whether `handler` hears every value, or only the latest
  ///     when values come faster than its isolation runs it.
  ///   - isolation: The caller's isolation, where `handler` runs; leave the
  ///     default.
  ///   - handler: What to do with each value.
  /// - Returns: The subscription: releasing it or cancelling it ends the
  ///   subscription.
  /// - Complexity: Amortized O(1).
  @inlinable
  public func observe(
    delivering policy: DeliveryPolicy = .everyValue,
    isolation: isolated (any Actor)? = #isolation, _ handler: @escaping (Value) -> Void
  ) -> EventSubscription {
    core.subscribe(nil, from: isolation, policy.mode, handler: .erasing(value: handler))
  }

  /// Calls `handler` with `target` and every value sent, for as long as
  /// `target` lives.
  ///
  /// The event holds `target` weakly and passes it to `handler`, so the
  /// handler needs no capture of it and makes no retain cycle.
  ///
  /// - Parameters:
  ///   - target: The object that hears the event; held weakly, also while
  ///     values wait for it on its isolation.
  ///   - policy: Whether `handler` hears every value, or only the latest
  ///     when values come faster than its isolation runs it.
  ///   - isolation: The caller's isolation, where `handler` runs; leave the
  ///     default.
  ///   - handler: What to do with the target and each value.
  /// - Returns: A subscription that can end it early; discarding it changes
  ///   nothing.
  /// - Complexity: Amortized O(1).
  @inlinable
  @discardableResult
  public func observe<Target: AnyObject>(
    _ target: Target, delivering policy: DeliveryPolicy = .everyValue,
    isolation: isolated (any Actor)? = #isolation,
    _ handler: @escaping (Target, Value) -> Void
  ) -> EventSubscription {
    core.subscribe(target, from: isolation, policy.mode, handler: .erasing(bound: handler))
  }

  /// Calls `action` on `target` with every value sent, for as long as
  /// `target` lives.
  ///
  /// Pass a method, named by its type: `event.observe(self, TickView.didTick)`
  /// in `TickView`, even in its initializer. (`Self.didTick` does not compile
  /// there: in a class, `Self` is the dynamic type of `self`.)
  ///
  /// Name a main-actor method only in main-actor code, such as the class's
  /// own. Swift 6.3 lets code isolated to no actor name one without a
  /// diagnostic, and the subscription, made there, then calls it where no
  /// actor is. The closure form, `event.observe(view) { view, count in
  /// view.didTick(count) }`, is checked by the compiler everywhere, and binds
  /// no method at each call, as this form does.
  ///
  /// - Parameters:
  ///   - target: The object that hears the event; held weakly.
  ///   - isolation: The caller's isolation, where `action` runs; leave the
  ///     default.
  ///   - action: The method to call, taking the value.
  /// - Returns: A subscription that can end it early; discarding it changes
  ///   nothing.
  /// - Complexity: Amortized O(1).
  @inlinable
  @discardableResult
  public func observe<Target: AnyObject>(
    _ target: Target, isolation: isolated (any Actor)? = #isolation,
    _ action: @escaping (Target) -> (Value) -> Void
  ) -> EventSubscription {
    observe(target, isolation: isolation) { target, value in action(target)(value) }
  }

  /// Calls `handler` with every value sent, for as long as the event exists.
  ///
  /// The event keeps `handler`: whatever it captures strongly lives as long
  /// as the event. Capturing the event's owner strongly makes a cycle that
  /// keeps both alive; capture it weakly.
  ///
  /// - Parameters:
  ///   - isolation: The caller's isolation, where `handler` runs; leave the
  ///     default.
  ///   - handler: What to do with each value.
  /// - Complexity: Amortized O(1).
  @inlinable
  public func observeForever(
    isolation: isolated (any Actor)? = #isolation, _ handler: @escaping (Value) -> Void
  ) {
    _ = core.register(core, from: isolation, handler: .erasing(value: handler))
  }

  /// Ends every subscription bound to `target`.
  ///
  /// - Parameters:
  ///   - target: The object whose subscriptions end.
  ///   - isolation: The caller's isolation; leave the default.
  /// - Returns: How many subscriptions ended.
  /// - Complexity: O(n), where n is the number of subscriptions.
  @discardableResult
  public func removeObservers(
    _ target: AnyObject, isolation: isolated (any Actor)? = #isolation
  ) -> Int {
    core.unsubscribeAll(boundTo: target, from: isolation)
  }

  /// Whether any subscription is alive.
  ///
  /// - Complexity: O(1) when a live subscription comes early in the order;
  ///   O(n) otherwise.
  public var hasObservers: Bool { core.hasObservers }
}

extension Event {
  /// Calls `handler` on `target`, an actor, with every value sent, for as
  /// long as `target` lives.
  ///
  /// Call it on the actor, which the event holds weakly and lends to
  /// `handler` isolated, so that the handler can touch the actor's state
  /// without capturing it:
  ///
  /// ```swift
  /// actor Indexer {
  ///   private var count = 0
  ///
  ///   func follow(_ documents: Event<Document>) {
  ///     documents.observe(actor: self) { indexer, document in indexer.count += 1 }
  ///   }
  /// }
  /// ```
  ///
  /// A closure that captures the actor to touch its state keeps it alive for
  /// as long as the subscription lasts; this form does not.
  ///
  /// - Parameters:
  ///   - target: The actor that hears the event, isolated to the caller;
  ///     held weakly, except by a delivery on its way to it: released while
  ///     it is busy, it may still hear, in order, values sent before, and
  ///     is released once they are delivered.
  ///   - policy: Whether `handler` hears every value, or only the latest
  ///     when values come faster than the actor runs it.
  ///   - handler: What to do with the actor and each value, on the actor.
  /// - Returns: A subscription that can end it early; discarding it changes
  ///   nothing.
  /// - Complexity: Amortized O(1).
  @inlinable
  @discardableResult
  public func observe<Target: Actor>(
    actor target: isolated Target, delivering policy: DeliveryPolicy = .everyValue,
    _ handler: @escaping (isolated Target, Value) -> Void
  ) -> EventSubscription {
    // The subscription is made on `target`'s isolation, so its handler runs
    // only there: calling it as a plain function, as `assumeIsolated` does,
    // is safe. (That method needs macOS 14.) The tests call such handlers
    // from many tasks, checking their isolation.
    core.subscribe(target, from: target, policy.mode, handler: .erasing(isolated: handler))
  }
}

extension Event where Value == Void {
  /// Calls `action` on `target` each time the event is sent, for as long as
  /// `target` lives.
  ///
  /// Pass a method that takes nothing, named by its type:
  /// `event.observe(self, TickView.didTick)`.
  ///
  /// - Parameters:
  ///   - target: The object that hears the event; held weakly.
  ///   - isolation: The caller's isolation, where `action` runs; leave the
  ///     default.
  ///   - action: The method to call.
  /// - Returns: A subscription that can end it early; discarding it changes
  ///   nothing.
  /// - Complexity: Amortized O(1).
  @inlinable
  @discardableResult
  public func observe<Target: AnyObject>(
    _ target: Target, isolation: isolated (any Actor)? = #isolation,
    _ action: @escaping (Target) -> () -> Void
  ) -> EventSubscription {
    observe(target, isolation: isolation) { target, _ in action(target)() }
  }
}

extension Event: Sendable where Value: Sendable {}
