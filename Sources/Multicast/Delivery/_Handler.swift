// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// A subscription's handler: the shapes a walk calls, and the structs that
// erase a subscriber's closure to one of them without wrapping it.

/// What a subscription bound to an object does with a value: it gets the
/// object its registration holds (its target, held weakly, or the core
/// itself) and the value, lent by a pointer (read it with
/// ``_EventCore/value(at:)``).
///
/// The value's type is erased so that every event keeps the same storage
/// type, compiled once in this module: storage code generic over `Value`
/// would look its types up at run time on every send unless the caller's
/// module specialized it.
@usableFromInline
typealias _EventHandler = (AnyObject, UnsafeRawPointer) -> Void

/// What a subscription that needs no object does with a value, lent by a
/// pointer to it.
@usableFromInline
typealias _ValueHandler = (UnsafeRawPointer) -> Void

/// What a subscription to an observable value's old and new values does
/// with them, lent by pointers into the change sent.
@usableFromInline
typealias _PairHandler = (UnsafeRawPointer, UnsafeRawPointer) -> Void

/// What a subscription bound to an object does with an observable value's
/// old and new values: it gets the object, then pointers into the change.
@usableFromInline
typealias _BoundPairHandler = (AnyObject, UnsafeRawPointer, UnsafeRawPointer) -> Void

/// A subscription's handler, in one of the four shapes a walk calls.
///
/// (A structure holding any of them, cast, and a tag saying which, would
/// copy and release more cheaply, but calling the cast closure copied it:
/// the enumeration costs less on the path that matters, each call.)
@usableFromInline
enum _Handler {
  /// Called with the value only: often the subscriber's own closure, erased
  /// by ``_TypedHandler``, with no closure of the library's around it.
  case value(_ValueHandler)
  /// Called with the object the registration holds, and the value.
  case bound(_EventHandler)
  /// Called with the two halves of the value, a pair: the old and the new
  /// value of an observable value's change, erased by ``_PairedHandler``.
  case pair(_PairHandler)
  /// Called with the object the registration holds and the two halves of
  /// the value, erased by ``_BoundPairedHandler`` or
  /// ``_IsolatedPairedHandler``.
  case boundPair(_BoundPairHandler)

  /// Calls the handler with `object`, which the registration holds, and the
  /// value at `value`, whose second half, for a pair, is `pairOffset`
  /// bytes in.
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

// Erasing a handler's types without a closure around it.
//
// A closure stored in a generic struct is stored at its most general
// abstraction, whatever the struct is specialized with, since unspecialized
// code must read it: a parameter of a generic type is passed by its address
// (`@in_guaranteed`), and a parameter of a type bound to classes as one
// reference. So a struct holding `(Value) -> Void` is laid out as one
// holding `(UnsafeRawPointer) -> Void`, a function that takes one pointer,
// and its context; and calling the second with a pointer to a `Value` calls
// the first with that value. Casting the function value itself would not do:
// a cast passes it through a generic parameter, which makes two thunks, each
// an allocation, and after specialization its parameter is no longer passed
// by address.
//
// The tests (HandlerLayoutTests, ActorFormValueTests) send values of every
// layout through each form: integers, long strings, large structures with
// references, class instances, enumerations, optionals, tuples, `Void`,
// empty values, functions, existentials and metatypes, old and new values
// whose size is not their stride; CI runs them in debug and release builds.

/// A subscriber's closure that takes the value, erased to a
/// ``_Handler/value(_:)``.
@usableFromInline
struct _TypedHandler<Value> {
  @usableFromInline
  let call: (Value) -> Void

  @inlinable
  init(_ call: @escaping (Value) -> Void) { self.call = call }

  /// The closure itself, called with a pointer to the value.
  @inlinable
  var erased: _Handler {
    .value(unsafeBitCast(self, to: _ErasedValueHandler.self).call)
  }
}

/// What a ``_TypedHandler`` is cast to.
@usableFromInline
struct _ErasedValueHandler {
  @usableFromInline
  let call: _ValueHandler

  @inlinable
  init(call: @escaping _ValueHandler) { self.call = call }
}

/// A subscriber's closure that takes its target and the value, erased to
/// a ``_Handler/bound(_:)``: `Target` is a class, passed as one reference
/// at every level of abstraction, as the registration's object is.
@usableFromInline
struct _BoundHandler<Target: AnyObject, Value> {
  @usableFromInline
  let call: (Target, Value) -> Void

  @inlinable
  init(_ call: @escaping (Target, Value) -> Void) { self.call = call }

  /// The closure itself, called with the registration's object, which is
  /// the target, and a pointer to the value.
  @inlinable
  var erased: _Handler {
    .bound(unsafeBitCast(self, to: _ErasedBoundHandler.self).call)
  }
}

/// A subscriber's closure isolated to its target, an actor, as the actor
/// forms take it, erased to a ``_Handler/bound(_:)``.
@usableFromInline
struct _IsolatedHandler<Target: Actor, Value> {
  @usableFromInline
  let call: (isolated Target, Value) -> Void

  @inlinable
  init(_ call: @escaping (isolated Target, Value) -> Void) { self.call = call }

  /// The closure itself, to be called with its target, only on the
  /// target's isolation: the subscription is made there. (`isolated` changes
  /// how a closure is checked, not how it is called.)
  @inlinable
  var erased: _Handler {
    .bound(unsafeBitCast(self, to: _ErasedBoundHandler.self).call)
  }
}

/// What a ``_BoundHandler`` or an ``_IsolatedHandler`` is cast to.
@usableFromInline
struct _ErasedBoundHandler {
  @usableFromInline
  let call: _EventHandler
}

/// A subscriber's closure that takes an old and a new value, erased to a
/// ``_Handler/pair(_:)``.
@usableFromInline
struct _PairedHandler<Value> {
  @usableFromInline
  let call: (Value, Value) -> Void

  @inlinable
  init(_ call: @escaping (Value, Value) -> Void) { self.call = call }

  /// The closure itself, called with a pointer to each value.
  @inlinable
  var erased: _Handler {
    .pair(unsafeBitCast(self, to: _ErasedPairHandler.self).call)
  }
}

/// What a ``_PairedHandler`` is cast to.
@usableFromInline
struct _ErasedPairHandler {
  @usableFromInline
  let call: _PairHandler
}

/// A subscriber's closure that takes its target and an old and a new value,
/// erased to a ``_Handler/boundPair(_:)``.
@usableFromInline
struct _BoundPairedHandler<Target: AnyObject, Value> {
  @usableFromInline
  let call: (Target, Value, Value) -> Void

  @inlinable
  init(_ call: @escaping (Target, Value, Value) -> Void) { self.call = call }

  /// The closure itself, called with the target and a pointer to each value.
  @inlinable
  var erased: _Handler {
    .boundPair(unsafeBitCast(self, to: _ErasedBoundPairHandler.self).call)
  }
}

/// A subscriber's closure isolated to its target, an actor, that takes an
/// old and a new value, erased to a ``_Handler/boundPair(_:)``.
@usableFromInline
struct _IsolatedPairedHandler<Target: Actor, Value> {
  @usableFromInline
  let call: (isolated Target, Value, Value) -> Void

  @inlinable
  init(_ call: @escaping (isolated Target, Value, Value) -> Void) { self.call = call }

  /// The closure itself, to be called with its target, only on the
  /// target's isolation, as ``_IsolatedHandler/erased`` is.
  @inlinable
  var erased: _Handler {
    .boundPair(unsafeBitCast(self, to: _ErasedBoundPairHandler.self).call)
  }
}

/// What a ``_BoundPairedHandler`` or an ``_IsolatedPairedHandler`` is cast
/// to.
@usableFromInline
struct _ErasedBoundPairHandler {
  @usableFromInline
  let call: _BoundPairHandler
}
