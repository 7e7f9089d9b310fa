extension MulticastDelegate {
  /// Adds an observer, to be called after those already registered.
  ///
  /// Adding an observer that is already registered changes nothing. The
  /// observer is held weakly.
  ///
  /// - Parameter observer: The observer to add. It must be a class instance.
  /// - Precondition: `observer` is a class instance.
  /// - Complexity: Amortized O(1).
  public func addObserver(_ observer: Observer) {
    let object = Self.object(of: observer)
    storage.insert(object, payload: rebuildWord(for: observer, object: object))
  }

  /// Removes an observer.
  ///
  /// Removing one that is not registered does nothing.
  ///
  /// An observer may remove itself from its own `deinit`. A broadcast under way
  /// does not call an observer removed before its turn.
  ///
  /// - Parameter observer: The observer to remove.
  /// - Complexity: Amortized O(1).
  public func removeObserver(_ observer: Observer) {
    let object = Self.object(of: observer)
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
  /// - Returns: `true` if `observer` itself was added and not removed since.
  /// - Complexity: O(1).
  public func contains(_ observer: Observer) -> Bool {
    let object = Self.object(of: observer)
    return storage.contains(object)
  }

  /// The number of registered observers that are alive.
  ///
  /// - Complexity: O(n), where n is the number of registrations.
  public var count: Int { storage.liveCount }

  /// Whether no registered observer is alive.
  ///
  /// - Complexity: O(1) when an observer is registered and alive early in the
  ///   order; O(n) otherwise.
  public var isEmpty: Bool { storage.isEmpty }

  /// The observer as an object; stops with a clear message if it is not one.
  ///
  /// This uses `fatalError` rather than `precondition` so that the message
  /// is printed in optimized builds too.
  static func object(of observer: Observer) -> AnyObject {
    let type = type(of: observer as Any)
    guard type is AnyObject.Type else {
      fatalError(
        """
        MulticastDelegate<\(Observer.self)> cannot hold a value of type \(type): \
        observers are held weakly, so they must be class instances. \
        Make the observer protocol class-bound (protocol P: AnyObject).
        """)
    }
    return observer as AnyObject
  }
}
