// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A handle on one subscription to an ``Event`` or an ``ObservableValue``.
///
/// How long a subscription lasts depends on how it was made:
///
/// - A closure subscription (``Event/observe(isolation:_:)``) lasts while you keep its
///   `Subscription`: releasing it, or calling ``cancel(isolation:)``, ends it.
/// - A subscription bound to a target (`event.observe(target, ...)`)
///   lasts while the target lives. Its `Subscription` may be discarded; keep
///   it only to end the subscription early with ``cancel(isolation:)``.
///
/// Keep many subscriptions together in a `Set` and end them all at once by
/// emptying it. Here with the player of the AudioPlayer example, whose
/// progress is an ``Event`` and whose volume an ``ObservableValue``:
///
/// ```swift
/// var subscriptions: Set<Subscription> = []
/// player.elapsed.observe { print("at", $0) }.store(in: &subscriptions)
/// player.volume.observe { old, new in print(old, "->", new) }.store(in: &subscriptions)
/// subscriptions.removeAll()  // both end here
/// ```
///
/// Subscriptions compare by identity. A `Subscription` is `Sendable`: keep
/// it, cancel it or release it on any actor or thread, even in the
/// nonisolated `deinit` of a main-actor class.
public final class Subscription: Hashable, Sendable {
  /// How long a subscription lasts unless it is cancelled.
  enum Lifetime: Sendable {
    /// Until this `Subscription` is released: a closure subscription.
    case untilReleased
    /// While its target lives, whatever becomes of this `Subscription`.
    case whileTargetLives
  }

  /// The event's core, held weakly: a subscription does not keep its event.
  private weak let source: (any _SubscriptionSource)?
  /// The registration to end; ending it again does nothing, since no other
  /// registration ever gets its number.
  private let registration: _Registration
  private let lifetime: Lifetime

  init(source: any _SubscriptionSource, registration: _Registration, lifetime: Lifetime) {
    self.source = source
    self.registration = registration
    self.lifetime = lifetime
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
    source?.unsubscribe(registration, from: isolation)
  }

  /// Adds the subscription to `set`, which then keeps it alive.
  ///
  /// - Parameter set: The set that keeps the subscription.
  public func store(in set: inout Set<Subscription>) {
    set.insert(self)
  }

  /// Returns whether two subscriptions are the same one.
  ///
  /// - Parameters:
  ///   - lhs: A subscription.
  ///   - rhs: Another subscription.
  /// - Returns: `true` if both are the same object.
  public static func == (lhs: Subscription, rhs: Subscription) -> Bool {
    lhs === rhs
  }

  /// Hashes the subscription's identity.
  ///
  /// - Parameter hasher: The hasher to use.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }

  deinit {
    if lifetime == .untilReleased {
      source?.unsubscribe(registration, from: nil)
    }
  }
}
