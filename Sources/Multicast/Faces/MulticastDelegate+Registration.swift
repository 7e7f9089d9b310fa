// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension MulticastDelegate {
  /// Adds an observer, to be called after those already registered.
  ///
  /// Adding an observer that is already registered changes nothing. The
  /// observer is held weakly; so one added from its own `deinit` is not
  /// registered, since an object being deinitialized can no longer be
  /// referenced weakly.
  ///
  /// - Parameter observer: The observer to add. It must be a class instance.
  /// - Precondition: `observer` is a class instance.
  /// - Complexity: Amortized O(1).
  @inlinable
  public func addObserver(_ observer: Observer) {
    withObject(of: observer) { object in
      insert(object, witnessTable: witnessTable(for: observer, object: object))
    }
  }

  /// The witness table to record for `observer`, whose object is `object`.
  @inlinable
  func witnessTable(for observer: Observer, object: AnyObject) -> _WitnessTable {
    rebuildsObservers ? _ObserverLayout.witnessTable(of: observer, object: object) : .needsCast
  }

  @usableFromInline
  func insert(_ object: AnyObject, witnessTable: _WitnessTable) {
    storage.insert(object, payload: witnessTable)
  }

  /// Removes an observer.
  ///
  /// Removing one that is not registered does nothing, nor does removing a
  /// value that is not a class instance (which can never be registered).
  /// Observers are held weakly, so one that is deallocated never needs
  /// removing.
  ///
  /// An observer that is not isolated to an actor may remove itself from its
  /// own `deinit`. A `@MainActor` observer cannot, as its `deinit` is
  /// nonisolated, and need not. A broadcast under way does not call an
  /// observer removed before its turn.
  ///
  /// - Parameter observer: The observer to remove.
  /// - Complexity: Amortized O(1).
  @inlinable
  public func removeObserver(_ observer: Observer) {
    withObjectIfAny(of: observer) { object in remove(object) }
  }

  @usableFromInline
  func remove(_ object: AnyObject) {
    storage.remove(object)
  }

  /// Removes every observer.
  ///
  /// A broadcast under way does not call the observers it has not reached
  /// yet, as with any removal.
  ///
  /// - Complexity: O(n), where n is the number of registrations.
  public func removeAllObservers() {
    storage.removeAll()
  }

  /// Returns whether an observer is registered.
  ///
  /// - Parameter observer: The observer to look for, compared by identity.
  /// - Returns: `true` if `observer` itself was added and not removed since;
  ///   `false` for a value that is not a class instance, which can never be.
  /// - Complexity: O(1).
  public func contains(_ observer: Observer) -> Bool {
    withObjectIfAny(of: observer) { object in storage.contains(object) } ?? false
  }

  /// The number of registered observers that are alive.
  ///
  /// The answer is exact at one instant during the call, even while other
  /// threads add and remove observers.
  ///
  /// - Complexity: O(n), where n is the number of registrations, with the
  ///   lock held.
  public var count: Int { storage.liveCount }

  /// Whether no registered observer is alive.
  ///
  /// The answer is exact at one instant during the call, even while other
  /// threads add and remove observers.
  ///
  /// - Complexity: O(1) when an observer is registered and alive early in the
  ///   order; O(n), with the lock held, otherwise.
  public var isEmpty: Bool { storage.isEmpty }

  /// Calls `body` with the observer as an object; stops with a clear message
  /// if it is not one.
  ///
  /// When every `Observer` is an object, `body` borrows the reference with no
  /// cast and no retain (see ``_ObserverLayout``). Otherwise each value's
  /// dynamic type is checked.
  @inlinable
  func withObject<Result>(of observer: Observer, _ body: (AnyObject) -> Result) -> Result {
    guard let result = withObjectIfAny(of: observer, body) else {
      Self.badObserver(type(of: observer as Any))
    }
    return result
  }

  /// Calls `body` with the observer as an object, or returns `nil` if it is
  /// not one: what a question or a removal does with a value that can never
  /// be registered.
  @inlinable
  func withObjectIfAny<Result>(
    of observer: Observer, _ body: (AnyObject) -> Result
  ) -> Result? {
    if observersAreObjects {
      return _ObserverLayout.withObject(ofClassBound: observer, body)
    }
    guard type(of: observer as Any) is AnyObject.Type else { return nil }
    return body(observer as AnyObject)
  }

  /// Stops the program: a value of `type` cannot be an observer.
  ///
  /// This uses `fatalError` rather than `precondition` so that the message
  /// is printed in optimized builds too.
  @usableFromInline
  static func badObserver(_ type: Any.Type) -> Never {
    fatalError(
      """
      MulticastDelegate<\(Observer.self)> cannot hold a value of type \(type): \
      observers are held weakly, so they must be class instances. \
      Make the observer protocol class-bound (protocol P: AnyObject).
      """)
  }
}
