// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

#if canImport(Observation)
public import Observation
#endif

/// How an ``ObservableValue`` takes part in Observation: its reads of
/// `value` are tracked, and its assignments tell the readers.
///
/// The registrar is kept in memory of its own, made only where the
/// platform has Observation (macOS 14, iOS 17, tvOS 17, watchOS 10,
/// visionOS 1 and later; Linux): a stored
/// `ObservationRegistrar` would not compile for iOS 13, and a registrar
/// behind a protocol or a subclass would be called unspecialized, looking up
/// the `Observable` conformance of `ObservableValue<Value>` at run time, on
/// every assignment. The calls are inlinable
/// instead, so that they are specialized with the value's type in the
/// caller's module.
///
/// A value makes it on its first read: a value that is only assigned and
/// observed with closures, never read, pays nothing for Observation. Once
/// made it is immutable, and the registrar is thread-safe, so reads and
/// assignments on any thread may use it.
@usableFromInline
final class _ValueObservation: @unchecked Sendable {
  // @unchecked Sendable: `registrar` is set once, in `init`, and points to
  // an `ObservationRegistrar`, which is `Sendable`. The Observation tests
  // read and assign from many threads.

  /// An `ObservationRegistrar`.
  @usableFromInline let registrar: UnsafeMutableRawPointer
  /// `\ObservableValue<Value>.value`, made once: a key path literal of a
  /// generic class is made again at each use.
  @usableFromInline let keyPath: AnyKeyPath

  /// The observation a core keeps in `slot`, made by `make` if none is yet;
  /// unretained: the value holds its core, which holds it.
  @inlinable
  static func unretained(
    in slot: inout AnyObject?, _ make: () -> _ValueObservation?
  ) -> Unmanaged<_ValueObservation>? {
    if slot == nil { slot = make() }
    return slot.map { Unmanaged.passUnretained(unsafeDowncast($0, to: _ValueObservation.self)) }
  }

  /// The observation of a new value of `Value`: `nil` where the platform
  /// has none.
  @usableFromInline
  static func make<Value>(for _: Value.Type) -> _ValueObservation? {
    make(keyPath: \ObservableValue<Value>.value)
  }

  /// The observation of a new derived value of `Value`: `nil` where the
  /// platform has none.
  static func make<Value>(forDerived _: Value.Type) -> _ValueObservation? {
    make(keyPath: \DerivedValue<Value>.value)
  }

  private static func make(keyPath: @autoclosure () -> AnyKeyPath) -> _ValueObservation? {
    #if canImport(Observation)
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      let registrar = UnsafeMutablePointer<ObservationRegistrar>.allocate(capacity: 1)
      registrar.initialize(to: ObservationRegistrar())
      return _ValueObservation(registrar: UnsafeMutableRawPointer(registrar), keyPath: keyPath())
    }
    #endif
    return nil
  }

  private init(registrar: UnsafeMutableRawPointer, keyPath: AnyKeyPath) {
    self.registrar = registrar
    self.keyPath = keyPath
  }

  /// The key path of `value` in an `ObservableValue<Value>`.
  @inlinable
  func keyPath<Value>(
    of _: ObservableValue<Value>
  ) -> KeyPath<ObservableValue<Value>, Value> {
    // `make(for:)` made it for this `Value`.
    unsafeDowncast(keyPath, to: KeyPath<ObservableValue<Value>, Value>.self)
  }

  deinit {
    #if canImport(Observation)
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      registrar.assumingMemoryBound(to: ObservationRegistrar.self).deinitialize(count: 1)
    }
    #endif
    registrar.deallocate()
  }

  /// What the registrar is told of `value`.
  @usableFromInline
  enum Signal {
    /// A read, for the tracking under way, if any.
    case access
    /// An assignment about to be made.
    case willSet
    /// An assignment made.
    case didSet
  }

  /// Tells the registrar of `signal` on `subject.value`, where the platform
  /// has Observation.
  func tell<Value>(_ signal: Signal, _ subject: DerivedValue<Value>) {
    #if canImport(Observation)
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      let registrar = registrar.assumingMemoryBound(to: ObservationRegistrar.self)
      // `make(forDerived:)` made it for this `Value`.
      let keyPath = unsafeDowncast(keyPath, to: KeyPath<DerivedValue<Value>, Value>.self)
      switch signal {
      case .access: registrar.pointee.access(subject, keyPath: keyPath)
      case .willSet: registrar.pointee.willSet(subject, keyPath: keyPath)
      case .didSet: registrar.pointee.didSet(subject, keyPath: keyPath)
      }
    }
    #endif
  }

  /// Tells the registrar of `signal` on `subject.value`, where the platform
  /// has Observation.
  @inlinable
  func tell<Value>(_ signal: Signal, _ subject: ObservableValue<Value>) {
    #if canImport(Observation)
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      let registrar = registrar.assumingMemoryBound(to: ObservationRegistrar.self)
      let keyPath = keyPath(of: subject)
      switch signal {
      case .access: registrar.pointee.access(subject, keyPath: keyPath)
      case .willSet: registrar.pointee.willSet(subject, keyPath: keyPath)
      case .didSet: registrar.pointee.didSet(subject, keyPath: keyPath)
      }
    }
    #endif
  }
}

#if canImport(Observation)
/// An observable value takes part in Observation, on macOS 14, iOS 17,
/// tvOS 17, watchOS 10, visionOS 1 and later, and on Linux.
///
/// A read of its ``ObservableValue/value`` inside `withObservationTracking`,
/// a SwiftUI view's `body` or an `@Observable` model's computed property is
/// tracked; only `value` is. Any assignment of `value`, and
/// ``ObservableValue/set(_:isolation:)``, from any isolation, tells the
/// readers once the new value is stored. Subscribing with a closure is not
/// a read. See <doc:SwiftUIAndObservation>.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ObservableValue: Observable {}

/// A derived value takes part in Observation, on macOS 14, iOS 17, tvOS 17,
/// watchOS 10, visionOS 1 and later, and on Linux.
///
/// A read of its ``DerivedValue/value`` is tracked: while the value is
/// observed, its changes tell the readers; while it is not, the read reads
/// its sources, whose changes do. See <doc:SwiftUIAndObservation>.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension DerivedValue: Observable {}
#endif
