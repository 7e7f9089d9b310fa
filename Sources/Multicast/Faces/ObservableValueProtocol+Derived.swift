// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension ObservableValueProtocol {
  /// A read-only value that is what `transform` makes of this one, kept
  /// current as this one changes.
  ///
  /// ```swift
  /// let volume = ObservableValue(0.5)
  /// let percent = volume.map { Int($0 * 100) }
  /// print(percent.value)  // 50
  /// let shown = percent.observe { old, new in print(old, "->", new) }
  /// volume.value = 0.7  // 50 -> 70
  /// ```
  ///
  /// The derived value subscribes to this one only while it is observed;
  /// see ``DerivedValue`` for when `transform` runs and how its value is
  /// read.
  ///
  /// - Parameter transform: What to make of the value; runs once per
  ///   change while the derived value is observed, else at each read.
  /// - Returns: The derived value.
  /// - Complexity: O(1).
  public func map<Output>(
    _ transform: @escaping @Sendable (Value) -> Output
  ) -> DerivedValue<Output> {
    DerivedValue([derivationSource]) { inputs in
      // The derivation passes each source's value, in order.
      transform(inputs[0] as! Value)
    }
  }

  /// A read-only value that `transform` makes of this value and `other`,
  /// kept current as either changes, as Combine's `combineLatest` does.
  ///
  /// ```swift
  /// let volume = ObservableValue(0.5)
  /// let isMuted = ObservableValue(false)
  /// let isAudible = volume.combined(with: isMuted) { volume, isMuted in
  ///   volume > 0 && !isMuted
  /// }
  /// let shown = isAudible.observeValue { print("audible:", $0) }  // audible: true
  /// isMuted.value = true  // audible: false
  /// ```
  ///
  /// The derived value subscribes to both only while it is observed; see
  /// ``DerivedValue`` for when `transform` runs and how its value is read.
  ///
  /// - Parameters:
  ///   - other: The other value, an ``ObservableValue`` or a ``DerivedValue``.
  ///   - transform: What to make of the two values; runs once per change
  ///     of either while the derived value is observed, else at each read.
  /// - Returns: The derived value.
  /// - Complexity: O(1).
  public func combined<Other: ObservableValueProtocol, Output>(
    with other: Other, _ transform: @escaping @Sendable (Value, Other.Value) -> Output
  ) -> DerivedValue<Output> {
    DerivedValue([derivationSource, other.derivationSource]) { inputs in
      transform(inputs[0] as! Value, inputs[1] as! Other.Value)
    }
  }

  /// A read-only value that `transform` makes of this value and two
  /// others, kept current as any of them changes.
  ///
  /// As ``combined(with:_:)``, for three values.
  ///
  /// - Parameters:
  ///   - second: The second value.
  ///   - third: The third value.
  ///   - transform: What to make of the three values; runs once per change
  ///     of any while the derived value is observed, else at each read.
  /// - Returns: The derived value.
  /// - Complexity: O(1).
  public func combined<Second: ObservableValueProtocol, Third: ObservableValueProtocol, Output>(
    with second: Second, _ third: Third,
    _ transform: @escaping @Sendable (Value, Second.Value, Third.Value) -> Output
  ) -> DerivedValue<Output> {
    DerivedValue([derivationSource, second.derivationSource, third.derivationSource]) {
      inputs in
      transform(inputs[0] as! Value, inputs[1] as! Second.Value, inputs[2] as! Third.Value)
    }
  }
}
