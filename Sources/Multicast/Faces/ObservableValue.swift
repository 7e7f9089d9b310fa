// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A value whose observers hear each change, with the old and the new value.
///
/// ```swift
/// let volume = ObservableValue(0.5)
/// let subscription = volume.observe { old, new in print(old, "->", new) }
/// volume.value = 0.7  // prints "0.5 -> 0.7"
/// subscription.cancel()
/// volume.value = 0.9  // prints nothing: the subscription ended
/// ```
///
/// Every assignment is delivered, even one that does not change the value;
/// where `Value` is `Equatable`, ``observe(removingDuplicates:isolation:_:)``
/// leaves those out.
/// Observers are called in the order they subscribed, under the contract of
/// ``EventSender``; an observer that assigns the value during a delivery has
/// its change delivered after the one in progress, before the outer
/// assignment returns, so every observer hears the changes in order and ends
/// at the current value.
///
/// # Actors and threads
///
/// `ObservableValue` is `Sendable` when its value is: an actor can keep one
/// and offer it to a main-actor view model. Reading ``value`` is safe from
/// any isolation, and each observer hears the changes on the isolation it
/// subscribed from, as an ``Event``'s subscriptions do: every change, in the
/// order of the assignments, none skipped or merged. An observer on a busy
/// actor hears them all, late.
///
/// Assigning ``value`` calls, before it returns, the observers of the actor
/// it runs on, which the concurrency runtime tells, and those isolated to no
/// actor; others hear the change from their actor's queue.
/// ``set(_:isolation:)`` does the same, knowing its caller's actor from the
/// compiler where it can.
///
/// Each assignment is atomic; a read followed by an assignment, such as
/// `value += 1`, is not: two isolations incrementing at once can lose one.
///
/// # SwiftUI and Observation
///
/// Where the platform has Observation (iOS 17, macOS 14, tvOS 17,
/// watchOS 10, visionOS 1 and later; Linux), an observable value is
/// `Observable`: a SwiftUI view that reads ``value`` in its `body` is
/// updated when it changes, from any isolation. Before those, a read is not
/// tracked: subscribe instead. See <doc:SwiftUIAndObservation>.
public final class ObservableValue<Value>: ObservableValueProtocol {
  // The assignments and the subscriptions are inlinable, so that a client's
  // module specializes them for its value: run unspecialized, each would
  // look up the metadata of the `(old:new:)` tuple, several times a change.

  /// The core, which also keeps the value and its Observation registrar.
  ///
  /// It keeps them under the lock that also orders the assignments'
  /// deliveries: each assignment queues its change on every destination
  /// before unlocking. The value is the core's latest value, the change a new subscription that starts
  /// with it hears first, `(old: value, new: value)`; the registrar is made
  /// by the first read, so a value that is never read makes none, and its
  /// assignments tell no registrar.
  @usableFromInline let core: _EventCore<(old: Value, new: Value)>

  /// The current value.
  ///
  /// Setting it calls every observer with the old and the
  /// new value.
  ///
  /// Where the platform has Observation (macOS 14, iOS 17, tvOS 17,
  /// watchOS 10, visionOS 1 and later; Linux), a read is tracked, as an
  /// `@Observable` model's properties are: a SwiftUI view whose `body` reads
  /// it is updated when it changes. An assignment, or ``set(_:isolation:)``,
  /// from any isolation, tells the readers once the new value is stored,
  /// before the observers on the isolation that assigns hear the change:
  /// a tracking's `onChange` that reads the value reads the new one (an
  /// `@Observable` property tells its readers before it changes). See
  /// <doc:SwiftUIAndObservation>.
  @inlinable
  public var value: Value {
    get {
      // The registrar is taken unretained: the value holds it, and lives.
      let (value, registrar) = core.withLatest { guarded, latest in
        let registrar = _ValueObservation.unretained(in: &guarded.observation) {
          .make(for: Value.self)
        }
        return (latest.unsafelyUnwrapped.new, registrar)
      }
      // Observation installs a tracking once the tracked code has returned,
      // so whether the read is recorded before or after it is made, a
      // change made by another thread in between is not told: the same
      // holds for an `@Observable` model's properties.
      registrar?._withUnsafeGuaranteedRef { $0.tell(.access, self) }
      return value
    }
    // A setter cannot know the actor it runs on: the runtime is asked.
    set { assign(newValue, from: nil) }
  }

  /// Sets the value, and calls every observer with the old and the new value.
  ///
  /// The same as assigning ``value``: observers subscribed on the actor it
  /// runs on hear the change before it returns. It knows its caller's actor
  /// from the compiler where it can, and asks the runtime otherwise.
  ///
  /// - Parameters:
  ///   - newValue: The new value.
  ///   - isolation: The caller's isolation; leave the default.
  /// - Complexity: O(n), where n is the number of observers.
  @inlinable
  public func set(_ newValue: Value, isolation: isolated (any Actor)? = #isolation) {
    assign(newValue, from: isolation)
  }

  /// Assigns `newValue` and, in the same critical section, queues the change
  /// on every destination, so that every destination hears the assignments in the order
  /// they were made; then delivers what can be delivered here.
  ///
  /// Observation's readers, if the value was ever read, are told after the
  /// value is stored, with no lock held (`willSet`, then `didSet`), and then
  /// the observers on this isolation hear the change; those on other actors
  /// may hear it meanwhile. Told after the store, a reader that reads again
  /// when told (as SwiftUI does) reads the new value, whatever thread
  /// assigned. Were `willSet` called before the store, as an `@Observable`
  /// property's is, a view told on the main thread could read the old value
  /// again before another thread stored the new one, track that read, and
  /// show the old value until the next change.
  @inlinable
  func assign(_ newValue: Value, from isolation: (any Actor)?) {
    core.assign(newValue, from: isolation) { registrar in
      guard let registrar else { return }
      let observation = unsafeDowncast(registrar, to: _ValueObservation.self)
      observation.tell(.willSet, self)
      observation.tell(.didSet, self)
    }
  }

  /// Creates an observable value.
  ///
  /// - Parameter value: The initial value.
  public init(_ value: Value) {
    core = _EventCore(
      owner: nil, onFirstObserver: nil, onLastObserverGone: nil,
      pairOffset: MemoryLayout<(old: Value, new: Value)>.offset(of: \.new)!,
      latest: (old: value, new: value),
      mergeChanges: _EventCore.mergingChanges)
  }

  deinit {
    // Nothing can change the value again: the streams of its changes end
    // once they have read the changes made before.
    core.close()
  }

  /// The changes, as an event (``ObservableValueProtocol/changes``).
  @inlinable
  public var changes: Event<(old: Value, new: Value)> { Event(core: core) }
}

extension ObservableValue: @unchecked Sendable where Value: Sendable {
  // @unchecked Sendable: the value is read and written only with the core's
  // lock held, and the core is thread-safe. The delivery tests assign and read
  // from many tasks and threads under ThreadSanitizer.
}
