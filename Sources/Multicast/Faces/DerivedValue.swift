// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A read-only value made from one or more others, whose observers hear
/// each change, with the old and the new value.
///
/// Make one with ``ObservableValueProtocol/map(_:)`` or
/// ``ObservableValueProtocol/combined(with:_:)``:
///
/// ```swift
/// let volume = ObservableValue(0.5)
/// let isMuted = ObservableValue(false)
/// let isAudible = volume.combined(with: isMuted) { volume, isMuted in
///   volume > 0 && !isMuted
/// }
/// print(isAudible.value)  // true
/// let changes = isAudible.observe(removingDuplicates: true) { print($0, "->", $1) }
/// isMuted.value = true  // true -> false
/// volume.value = 0  // nothing: still not audible
/// isMuted.value = false  // nothing: still not audible
/// volume.value = 0.3  // false -> true
/// ```
///
/// It offers every way to observe that an ``ObservableValue`` does
/// (``ObservableValueProtocol``): old and new values, from the current
/// value, once, without duplicates, its ``ObservableValueProtocol/changes``,
/// and Observation's tracking of ``value``; and it can be derived from in
/// turn. Each change of a source makes one change, even when the derived
/// value stays equal: observe with `removingDuplicates: true` to hear only
/// those that differ. A change's old value is the value the derived value
/// had before it, the new one had by the last change its observers heard.
///
/// # Subscribing upstream only while observed
///
/// A derived value subscribes to its sources only while it has
/// subscriptions: its first subscription subscribes it, before that
/// subscription is made, and its last one gone ends that, as an event made
/// with ``Event/map(_:)`` does. It is kept alive by its subscriptions, so
/// `volume.map { $0 > 0 }.observe(self) { ... }` lasts as long as `self`.
///
/// Reading ``value`` runs the transform on the sources' current values, at
/// each read. For its observers the transform runs once per change of a
/// source, whatever their number. The transform must be `Sendable`, as it
/// runs where a source's change is delivered, or where the value is read;
/// keep it quick and free of side effects.
///
/// A derived value holds its sources, so the stream of its changes ends
/// once it and its first source are both released.
///
/// # Actors and threads
///
/// Its subscriptions keep every rule of an observable value's: each runs on
/// the isolation it was made from, hears the changes in order, and holds a
/// target weakly. The derived value makes each change where a source's
/// change is delivered to subscriptions isolated to no actor: an assignment
/// on the main actor, with nothing else under way, reaches the derived
/// value's main-actor observers before it returns.
///
/// A value combined with another derived from the same source hears one
/// assignment of that source twice, once through each, as Combine's
/// `combineLatest` does: its first change is made of one new value and one
/// old one.
///
/// When sources of a combined value change on different threads at once,
/// each change of the derived value is made from source values that were
/// current together, every source's change is in one of them, and changes
/// made at once may reach it as one.
///
/// `DerivedValue` is `Sendable` when its value is.
public final class DerivedValue<Value>: ObservableValueProtocol {
  /// The core of its changes; its latest value is known only while the
  /// derived value is observed, and is the value its observers last heard.
  @usableFromInline let core: _EventCore<(old: Value, new: Value)>
  let derivation: _Derivation<Value>
  /// Each source's current value, read through its face, so that
  /// Observation tracks the sources; they hold the sources.
  private let readers: [() -> Any]

  /// A derived value of `sources`, made by `transform` from their values,
  /// in the order of `sources`.
  init(_ sources: [_DerivationSource], transform: @escaping @Sendable ([Any]) -> Value) {
    let derivation = _Derivation(
      sources: sources.map { ($0.core, $0.kind) }, transform: transform)
    let core = derivation.makeCore(first: sources[0].core)
    self.core = core
    self.derivation = derivation
    readers = sources.map(\.read)
    let face = _WeakReference(self)
    derivation.tellReaders = {
      guard let face = face.object.map({ unsafeDowncast($0, to: DerivedValue<Value>.self) })
      else { return }
      let registrar = face.core.withLatest { guarded, _ in guarded.observation }
      guard let registrar else { return }
      let observation = unsafeDowncast(registrar, to: _ValueObservation.self)
      observation.tell(.willSet, face)
      observation.tell(.didSet, face)
    }
  }

  /// The current value: made from its sources' current values, at each
  /// read.
  ///
  /// A read sees every assignment to a source that returned before it; its
  /// observers may hear of the change later, as an ``ObservableValue``'s do.
  ///
  /// Where the platform has Observation (macOS 14, iOS 17, tvOS 17,
  /// watchOS 10, visionOS 1 and later; Linux), a read is tracked, as an
  /// ``ObservableValue``'s is: a SwiftUI view whose `body` reads it is
  /// updated when it changes. See <doc:SwiftUIAndObservation>.
  ///
  /// - Complexity: The transform's, once.
  public var value: Value {
    // The registrar is taken unretained: the value holds it, and lives.
    let registrar = core.withLatest { guarded, _ in
      _ValueObservation.unretained(in: &guarded.observation) { .make(forDerived: Value.self) }
    }
    registrar?._withUnsafeGuaranteedRef { $0.tell(.access, self) }
    // Each source's read is tracked too, and so is told of the changes the
    // derived value does not follow while not observed.
    return derivation.transform(readers.map { $0() })
  }

  /// The changes, as an event (``ObservableValueProtocol/changes``).
  @inlinable
  public var changes: Event<(old: Value, new: Value)> { Event(core: core) }
}

extension DerivedValue: @unchecked Sendable where Value: Sendable {
  // @unchecked Sendable: its stored properties are constants; the core and
  // the derivation are thread-safe, and the readers read sources that are
  // Sendable when `Value` is made from Sendable values (the transform is
  // `Sendable`). The derived value stress tests read and observe from many
  // threads under ThreadSanitizer.
}

/// One source of a derived value, erased: its core, how to handle it, and
/// how to read its value.
struct _DerivationSource {
  let core: AnyObject
  let kind: _SourceKind
  let read: () -> Any
}

extension ObservableValueProtocol {
  /// This value as a source of a derived value.
  var derivationSource: _DerivationSource {
    _DerivationSource(core: changes.core, kind: _ValueSourceKind<Value>(), read: { self.value })
  }
}
