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
// out as one holding `(UnsafeRawPointer) -> Void`. README.md, "Handlers",
// says why a cast of the function itself would not do, and which tests
// cover every layout (HandlerLayoutTests, ActorFormValueTests). Where it
// stands, each `unsafeBitCast` below traps in every build if the two types'
// sizes differ.

/// A subscriber's closure that takes the value.
@usableFromInline
struct _TypedHandler<Value> {
  @usableFromInline
  let call: (Value) -> Void

  @inlinable
  init(_ call: @escaping (Value) -> Void) { self.call = call }

  @inlinable
  var erased: _Handler {
    .value(unsafeBitCast(self, to: _ErasedValueHandler.self).call)
  }
}

/// What a ``_TypedHandler`` is cast to.
@usableFromInline
struct _ErasedValueHandler {
  @usableFromInline
  let call: (UnsafeRawPointer) -> Void

  @inlinable
  init(call: @escaping (UnsafeRawPointer) -> Void) { self.call = call }
}

/// A subscriber's closure that takes its target, a class (one reference at
/// every abstraction, as the registration's object is), and the value.
@usableFromInline
struct _BoundHandler<Target: AnyObject, Value> {
  @usableFromInline
  let call: (Target, Value) -> Void

  @inlinable
  init(_ call: @escaping (Target, Value) -> Void) { self.call = call }

  @inlinable
  var erased: _Handler {
    .bound(unsafeBitCast(self, to: _ErasedBoundHandler.self).call)
  }
}

/// A subscriber's closure isolated to its target, an actor.
@usableFromInline
struct _IsolatedHandler<Target: Actor, Value> {
  @usableFromInline
  let call: (isolated Target, Value) -> Void

  @inlinable
  init(_ call: @escaping (isolated Target, Value) -> Void) { self.call = call }

  /// To be called only on the target's isolation, where the subscription
  /// was made (D3): `isolated` changes how a closure is checked, not called.
  @inlinable
  var erased: _Handler {
    .bound(unsafeBitCast(self, to: _ErasedBoundHandler.self).call)
  }
}

/// What a ``_BoundHandler`` or an ``_IsolatedHandler`` is cast to.
@usableFromInline
struct _ErasedBoundHandler {
  @usableFromInline
  let call: (AnyObject, UnsafeRawPointer) -> Void
}

/// A subscriber's closure that takes an old and a new value.
@usableFromInline
struct _PairedHandler<Value> {
  @usableFromInline
  let call: (Value, Value) -> Void

  @inlinable
  init(_ call: @escaping (Value, Value) -> Void) { self.call = call }

  @inlinable
  var erased: _Handler {
    .pair(unsafeBitCast(self, to: _ErasedPairHandler.self).call)
  }
}

/// What a ``_PairedHandler`` is cast to.
@usableFromInline
struct _ErasedPairHandler {
  @usableFromInline
  let call: (UnsafeRawPointer, UnsafeRawPointer) -> Void
}

/// A subscriber's closure that takes its target and an old and a new value.
@usableFromInline
struct _BoundPairedHandler<Target: AnyObject, Value> {
  @usableFromInline
  let call: (Target, Value, Value) -> Void

  @inlinable
  init(_ call: @escaping (Target, Value, Value) -> Void) { self.call = call }

  @inlinable
  var erased: _Handler {
    .boundPair(unsafeBitCast(self, to: _ErasedBoundPairHandler.self).call)
  }
}

/// A subscriber's closure isolated to its target, an actor, that takes an
/// old and a new value.
@usableFromInline
struct _IsolatedPairedHandler<Target: Actor, Value> {
  @usableFromInline
  let call: (isolated Target, Value, Value) -> Void

  @inlinable
  init(_ call: @escaping (isolated Target, Value, Value) -> Void) { self.call = call }

  /// As ``_IsolatedHandler/erased``.
  @inlinable
  var erased: _Handler {
    .boundPair(unsafeBitCast(self, to: _ErasedBoundPairHandler.self).call)
  }
}

/// What a ``_BoundPairedHandler`` or an ``_IsolatedPairedHandler`` is cast to.
@usableFromInline
struct _ErasedBoundPairHandler {
  @usableFromInline
  let call: (AnyObject, UnsafeRawPointer, UnsafeRawPointer) -> Void
}
