// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A handle on one subscription to an ``Event`` or an ``ObservableValue``.
///
/// How long a subscription lasts depends on how it was made:
///
/// - A closure subscription (``Event/observe(delivering:isolation:_:)``) lasts while you keep its
///   `EventSubscription`: releasing it, or calling ``cancel(isolation:)``, ends it.
///   Keep it in a stored property or a set: an optimized build may release a
///   local variable after its last use, as it may any object's, which ends
///   the subscription there.
/// - A subscription bound to a target (`event.observe(target, ...)`)
///   lasts while the target lives. Its `EventSubscription` may be discarded; keep
///   it only to end the subscription early with ``cancel(isolation:)``.
///
/// # When the sender goes: unlike Combine
///
/// A subscription does not keep its event alive. Releasing the
/// ``EventSender`` or the ``ObservableValue`` ends its subscriptions and
/// releases their handlers, with what they capture, even those whose
/// `EventSubscription` you still hold; ``cancel(isolation:)`` then does
/// nothing. Combine does the opposite: a held `AnyCancellable` keeps its
/// subscription and its closure until `cancel()` or its release.
///
/// Nothing can send to those subscriptions again, so nothing is kept for
/// nothing: a handler that captures its subscriber makes no leak once the
/// sender goes. Keep the sender for as long as its subscribers should hear
/// it.
///
/// The handlers are released once every ``Event`` taken from the sender is
/// gone too, and no value of it waits to be delivered to them. An
/// ``Event/values`` stream ends at the sender's release itself, once it has
/// read the values sent before, so that a `for await` loop over it ends.
///
/// Keep many subscriptions together in a `Set` and end them all at once by
/// emptying it. Here with the player of the AudioPlayer example, whose
/// progress is an ``Event`` and whose volume an ``ObservableValue``:
///
/// ```swift
/// var subscriptions: Set<EventSubscription> = []
/// player.elapsed.observe { print("at", $0) }.store(in: &subscriptions)
/// player.volume.observe { old, new in print(old, "->", new) }.store(in: &subscriptions)
/// subscriptions.removeAll()  // both end here
/// ```
///
/// Subscriptions compare by identity. A `EventSubscription` is `Sendable`: keep
/// it, cancel it or release it on any actor or thread, even in the
/// nonisolated `deinit` of a main-actor class.
public final class EventSubscription: Hashable, @unchecked Sendable {
  // @unchecked Sendable: `ended` is read and written only atomically, at
  // its address (see `endedFlag`); the other stored properties are
  // immutable, or a weak reference, which the runtime makes thread-safe.
  // The cancellation tests cancel and release subscriptions from many
  // threads while others send, under ThreadSanitizer.

  /// Whether the subscription was ended through this handle.
  ///
  /// It is 1 once ``cancel(isolation:)`` has ended the registration.
  /// Declared first, so that it lies at the start of the object's stored
  /// properties, where ``endedFlag`` finds it; accessed only atomically
  /// there.
  private var ended: UInt64 = 0

  /// How long a subscription lasts unless it is cancelled.
  enum Lifetime: Sendable {
    /// Until this `EventSubscription` is released: a closure subscription.
    case untilReleased
    /// While its target lives, whatever becomes of this `EventSubscription`.
    case whileTargetLives
  }

  /// The event's core, held weakly: a subscription does not keep its event.
  private weak let source: (any _SubscriptionSource)?
  /// The registration to end; ending it again does nothing, since no other
  /// registration ever gets its number.
  private let registration: _Registration
  private let lifetime: Lifetime

  /// The subscription of `registration` in `source`, bound to `target` if any.
  init(
    _ source: __shared any _SubscriptionSource, _ registration: _Registration,
    target: __shared AnyObject?
  ) {
    self.source = source
    self.registration = registration
    self.lifetime = target == nil ? .untilReleased : .whileTargetLives
    withUnsafeMutablePointer(to: &ended) {
      assert($0 == endedFlag, "`ended` is not the first stored property of EventSubscription")
    }
  }

  /// Ends the subscription, from any isolation.
  ///
  /// Cancelling again does nothing.
  ///
  /// A delivery under way does not reach a subscription cancelled before its
  /// turn, nor do values still waiting for it on its actor.
  ///
  /// - Parameter isolation: The caller's isolation; leave the default.
  /// - Complexity: O(log n), where n is the number of subscriptions.
  public func cancel(isolation: isolated (any Actor)? = #isolation) {
    registration.end(in: { source }, from: isolation, marking: endedFlag)
  }

  /// The address of ``ended``: the first stored property, which the
  /// standard library locates as `ManagedBuffer` locates its header.
  private var endedFlag: UnsafeMutablePointer<UInt64> {
    _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: UInt64.self)
  }

  /// Adds the subscription to `set`, which then keeps it alive.
  ///
  /// - Parameter set: The set that keeps the subscription.
  public func store(in set: inout Set<EventSubscription>) {
    set.insert(self)
  }

  /// Returns whether two subscriptions are the same one.
  ///
  /// - Parameters:
  ///   - lhs: A subscription.
  ///   - rhs: Another subscription.
  /// - Returns: `true` if both are the same object.
  public static func == (lhs: EventSubscription, rhs: EventSubscription) -> Bool {
    lhs === rhs
  }

  /// Hashes the subscription's identity.
  ///
  /// - Parameter hasher: The hasher to use.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }

  deinit {
    // A subscription cancelled already is not looked up again.
    if lifetime == .untilReleased, !_Registration.isEnded(endedFlag) {
      source?.unsubscribe(registration, from: nil)
    }
  }
}

extension _EventCore {
  /// Subscribes `handler` for the values `mode` says, on `isolation`, while
  /// `target` lives or, with none, while the subscription is kept.
  @usableFromInline
  func subscribe(
    _ target: AnyObject?, from isolation: (any Actor)?, _ mode: _SubscriptionMode,
    handler: _Handler
  ) -> EventSubscription {
    guard mode != .latest else {
      // Every value that reaches the latest-only core, which coalesces them.
      let core = latestOnly()
      return EventSubscription(
        core, core.register(target, from: isolation, .everyValue, handler: handler),
        target: target)
    }
    return EventSubscription(
      self, register(target, from: isolation, mode, handler: handler), target: target)
  }

  /// ``subscribe(_:from:_:handler:)`` to a value's changes, a derived value's too.
  @usableFromInline
  func subscribeToValue(
    _ target: AnyObject?, from isolation: (any Actor)?, _ mode: _SubscriptionMode,
    handler: _Handler
  ) -> EventSubscription {
    guard mode == .startingWithLatest else {
      return subscribe(target, from: isolation, mode, handler: handler)
    }
    return EventSubscription(
      self, registerFromCurrentValue(target, from: isolation, handler: handler), target: target)
  }
}
