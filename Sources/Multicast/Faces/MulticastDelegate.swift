// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A list of weakly held observers that a subject calls in registration order.
///
/// A subject keeps one `MulticastDelegate` for an observer protocol, lets
/// observers register and broadcasts each event to all of them:
///
/// ```swift
/// protocol DownloadObserver: AnyObject {
///   func download(_ download: Download, didReceive bytes: Int)
///   func downloadDidFinish(_ download: Download)
/// }
///
/// extension DownloadObserver {  // observers implement only what they need
///   func download(_ download: Download, didReceive bytes: Int) {}
///   func downloadDidFinish(_ download: Download) {}
/// }
///
/// final class Download {
///   private let observers = MulticastDelegate<any DownloadObserver>()
///
///   func addObserver(_ observer: any DownloadObserver) {
///     observers.addObserver(observer)
///   }
///
///   func removeObserver(_ observer: any DownloadObserver) {
///     observers.removeObserver(observer)
///   }
///
///   func finish() {
///     observers { $0.downloadDidFinish(self) }
///   }
/// }
/// ```
///
/// `Observer` is usually an existential of a class-bound protocol, such as
/// `any DownloadObserver`, but any class type or class-bound existential works.
///
/// # Order
///
/// Observers are called in the order they were added. Adding an observer that
/// is already registered changes nothing: it keeps its place and is called once.
///
/// # Lifetime
///
/// Observers are held weakly and never retained, so none ever needs
/// removing. An observer that is deallocated without being removed is never
/// called again and stops counting at once: ``count``, ``isEmpty`` and
/// ``contains(_:)`` are always exact, even while other threads add and remove
/// observers: each answers what the registrations were at one instant during
/// the call. An observer that is not isolated to an actor may still call
/// ``removeObserver(_:)`` with itself from its `deinit`. A `@MainActor`
/// observer cannot: its `deinit` is nonisolated, so there it can neither call
/// a main-actor subject nor use an isolated conformance; it needs no removal.
/// Storage for dead observers is reclaimed as registrations and removals go
/// on, so it stays proportional to the observers alive.
///
/// # Identity
///
/// Observers are compared by identity (`===`), never by `Equatable`. An object
/// allocated at the address of a dead observer is a new observer: it is not
/// "already registered", and ``contains(_:)`` is `false` for it until it is added.
///
/// # Re-entrancy
///
/// While a broadcast is calling observers, any of them may add or remove
/// observers (itself included) or start a nested broadcast. A broadcast calls
/// the observers that were registered when it began, minus those removed before
/// their turn. An observer added during a broadcast is first called by the next
/// one. A nested broadcast runs to completion inside the one that started it.
///
/// ```swift
/// // first's method removes second and adds third:
/// observers { $0.ping() }  // first ping
/// observers { $0.ping() }  // first ping, third ping
/// ```
///
/// # Threads
///
/// Every method is safe to call from any thread, at the same time as any
/// other. Observers run on the thread that broadcasts, and no lock is held
/// while they run, so a broadcast never deadlocks against registration. The
/// type is `Sendable` exactly when `Observer` is: only then may observers be
/// handed to whichever thread broadcasts.
///
/// # Actors
///
/// Observers that live on the main actor, such as views, are reached from
/// any isolation with ``onMainActor(isolation:_:)``: on the main actor it
/// broadcasts at once, after any broadcasts still queued; elsewhere it queues
/// the broadcast,
/// and the queue is delivered on the main actor in the order the broadcasts
/// were made. Queued broadcasts hold no observer: one removed or released
/// before its turn is not called.
///
/// # Errors
///
/// ``invoke(_:)`` and ``callAsFunction(_:)`` rethrow. The first error thrown
/// by `body` stops the broadcast: the observers after it are not called.
///
/// # Bad input
///
/// Adding a value that is not a class instance, possible only when `Observer`
/// is not class-bound, stops the program with a precondition failure that
/// names the value's type. Such a value could not be held weakly.
///
/// # Performance
///
/// ``addObserver(_:)`` and ``removeObserver(_:)`` are amortized O(1);
/// ``contains(_:)`` is O(1); ``count`` is O(n), since only looking at an
/// observer tells whether it is still alive, and holds the lock while it
/// looks; ``isEmpty`` is O(1) when an observer early in the order is alive,
/// O(n) otherwise. A broadcast takes no lock: it begins with one atomic
/// increment on a cache line of its thread's own, and leaves with one
/// atomic decrement there, so broadcasts from several threads at once write
/// no word in common; in between, for each observer, it loads the weak
/// reference and calls `body`, with no heap allocation. When `Observer` is a
/// class or an existential of one class-bound protocol, the observer is
/// rebuilt from the pointers recorded when it was added, so no runtime cast is
/// made per call; other existentials fall back to a dynamic cast.
public final class MulticastDelegate<Observer> {
  /// The registrations, each with the witness table that rebuilds its
  /// observer.
  @usableFromInline
  let storage = _KeyedRegistry<_WitnessTable>()

  /// Whether observers may be rebuilt from their witness tables rather than
  /// cast at each call.
  ///
  /// Tests turn it off to run the contract on both paths. It costs one
  /// predictable branch per ``addObserver(_:)``; broadcasts never read it.
  @usableFromInline
  let rebuildsObservers: Bool

  /// Delivers a run of broadcasts queued for another actor: made where the
  /// initializer is inlined, so that it is specialized for `Observer` as a
  /// broadcast made there is.
  @usableFromInline
  let deliverRun: @Sendable (MulticastDelegate, UnsafeBufferPointer<_DeliveryJob>) -> Void

  /// Creates an empty multicast delegate.
  ///
  /// - Complexity: O(1).
  @inlinable
  public convenience init() {
    self.init(rebuildingObservers: true) { $0.deliverQueued($1) }
  }

  /// Whether every value of `Observer` is a class instance, so that no
  /// value needs checking: see ``withObject(of:_:)``.
  @usableFromInline
  let observersAreObjects = _ObserverLayout<Observer>.isClassBound

  @usableFromInline
  init(
    rebuildingObservers: Bool,
    deliveringRunsWith deliverRun:
      @escaping @Sendable (MulticastDelegate, UnsafeBufferPointer<_DeliveryJob>) -> Void = {
        $0.deliverQueued($1)
      }
  ) {
    self.rebuildsObservers = rebuildingObservers
    self.deliverRun = deliverRun
  }
}

// A multicast delegate hands its observers to whichever thread broadcasts, so
// it may cross threads only when its observers may. Its own state is guarded
// by its storage. (Declared here: a class's Sendable conformance must be.)
extension MulticastDelegate: Sendable where Observer: Sendable {}
