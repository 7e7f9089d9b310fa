// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A subscription's handler, in one of the four shapes a walk calls (an
/// enumeration: cheaper to call than a cast closure with a tag).
///
/// A value is lent by a pointer, and its type erased, so that every event's
/// storage is compiled once, with no run-time type lookups; a bound shape
/// also gets the object its registration holds.
@usableFromInline
enum _Handler {
  case value((UnsafeRawPointer) -> Void)
  case bound((AnyObject, UnsafeRawPointer) -> Void)
  /// The old and new values of an observable value's change.
  case pair((UnsafeRawPointer, UnsafeRawPointer) -> Void)
  case boundPair((AnyObject, UnsafeRawPointer, UnsafeRawPointer) -> Void)

  /// Calls the handler with `object`, which the registration holds, and the
  /// value at `value`; a pair's second half is `pairOffset` bytes in.
  @inline(__always)
  func callAsFunction(_ object: AnyObject, _ value: UnsafeRawPointer, pairOffset: Int) {
    switch self {
    case .value(let call): call(value)
    case .bound(let call): call(object, value)
    case .pair(let call): call(value, value + pairOffset)
    case .boundPair(let call): call(object, value, value + pairOffset)
    }
  }
}

// Erasing a handler's types without a closure around it: a closure in a
// generic struct is stored at its most general abstraction, a generic
// parameter passed by address, so a struct holding `(Value) -> Void` is laid
// out as one holding `(UnsafeRawPointer) -> Void`; an `Optional`'s payload is
// stored at the function's own abstraction, not `Wrapped`'s. README.md, "Handlers",
// says why a cast of the function itself would not do, and which tests
// cover every layout (HandlerLayoutTests, ActorFormValueTests). Each
// `unsafeBitCast` below traps in every build if the two types' sizes differ.

/// A subscriber's closure, in the one field of its shape, with its types: a
/// target, a class, is one reference at every abstraction, as the
/// registration's object is.
@usableFromInline
struct _TypedHandler<Target: AnyObject, Value> {
  @usableFromInline var value: ((Value) -> Void)? = nil
  @usableFromInline var bound: ((Target, Value) -> Void)? = nil
  @usableFromInline var pair: ((Value, Value) -> Void)? = nil
  @usableFromInline var boundPair: ((Target, Value, Value) -> Void)? = nil

  @inlinable init() {}

  @inlinable
  var erased: _Handler { unsafeBitCast(self, to: _Handler.Erased.self).handler }
}

/// A subscriber's closure isolated to its target, an actor, laid out as
/// ``_TypedHandler``; called only on the target's isolation, where the
/// subscription was made (D3): `isolated` changes how a closure is checked,
/// not how it is called.
@usableFromInline
struct _IsolatedHandler<Target: Actor, Value> {
  @usableFromInline var value: ((Value) -> Void)? = nil
  @usableFromInline var bound: ((isolated Target, Value) -> Void)? = nil
  @usableFromInline var pair: ((Value, Value) -> Void)? = nil
  @usableFromInline var boundPair: ((isolated Target, Value, Value) -> Void)? = nil

  @inlinable init() {}

  @inlinable
  var erased: _Handler { unsafeBitCast(self, to: _Handler.Erased.self).handler }
}

extension _Handler {
  /// What a ``_TypedHandler`` or an ``_IsolatedHandler`` is cast to.
  @usableFromInline
  struct Erased {
    @usableFromInline let value: ((UnsafeRawPointer) -> Void)?
    @usableFromInline let bound: ((AnyObject, UnsafeRawPointer) -> Void)?
    @usableFromInline let pair: ((UnsafeRawPointer, UnsafeRawPointer) -> Void)?
    @usableFromInline let boundPair: ((AnyObject, UnsafeRawPointer, UnsafeRawPointer) -> Void)?

    /// The shape whose field is set; unwrapped by `if let`, not through
    /// `Optional`'s generic accessors, which would reabstract the function.
    @inlinable
    var handler: _Handler {
      if let value { return .value(value) }
      if let bound { return .bound(bound) }
      if let pair { return .pair(pair) }
      if let boundPair { return .boundPair(boundPair) }
      preconditionFailure("a handler with no closure")
    }
  }

  /// A closure that takes the value.
  @inlinable
  static func erasing<Value>(value call: @escaping (Value) -> Void) -> _Handler {
    var typed = _TypedHandler<AnyObject, Value>()
    typed.value = call
    return typed.erased
  }

  /// A closure that takes its target, a class, and the value.
  @inlinable
  static func erasing<Target: AnyObject, Value>(
    bound call: @escaping (Target, Value) -> Void
  ) -> _Handler {
    var typed = _TypedHandler<Target, Value>()
    typed.bound = call
    return typed.erased
  }

  /// A closure isolated to its target, an actor, that takes the value.
  @inlinable
  static func erasing<Target: Actor, Value>(
    isolated call: @escaping (isolated Target, Value) -> Void
  ) -> _Handler {
    var typed = _IsolatedHandler<Target, Value>()
    typed.bound = call
    return typed.erased
  }

  /// A closure that takes an old and a new value.
  @inlinable
  static func erasing<Value>(pair call: @escaping (Value, Value) -> Void) -> _Handler {
    var typed = _TypedHandler<AnyObject, Value>()
    typed.pair = call
    return typed.erased
  }

  /// A closure that takes its target, a class, and an old and a new value.
  @inlinable
  static func erasing<Target: AnyObject, Value>(
    boundPair call: @escaping (Target, Value, Value) -> Void
  ) -> _Handler {
    var typed = _TypedHandler<Target, Value>()
    typed.boundPair = call
    return typed.erased
  }

  /// A closure isolated to its target, an actor, that takes an old and a new value.
  @inlinable
  static func erasing<Target: Actor, Value>(
    isolatedPair call: @escaping (isolated Target, Value, Value) -> Void
  ) -> _Handler {
    var typed = _IsolatedHandler<Target, Value>()
    typed.boundPair = call
    return typed.erased
  }
}
