// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A broadcast queued for another actor, waiting its turn: what it does with
/// each observer, as a plain function.
///
/// Both queued faces store their body with its isolation dropped: a
/// `@MainActor` or `@isolated(any)` body has the representation of a plain
/// function of the same type, and is called only on its actor (D3). So it is
/// delivered by a call, in order with all else queued there, and takes two
/// words in a job, with no box. Its type is spelled with `Observer`,
/// as in the methods that take it, so that storing it needs no thunk.
@usableFromInline
struct _QueuedBroadcast<Observer>: Sendable {
  @usableFromInline let body: @Sendable (Observer) -> Void

  /// A body isolated to the main actor.
  @inlinable
  init(mainActor body: @escaping @MainActor @Sendable (Observer) -> Void) {
    self.body = unsafeBitCast(body, to: (@Sendable (Observer) -> Void).self)
  }

  /// A body that carries its isolation.
  @inlinable
  init(isolatedToAny body: @escaping @isolated(any) @Sendable (Observer) -> Void) {
    // Cast as a struct holding the body: a function type that carries its
    // isolation needs macOS 15 to be a generic argument, as a cast's would
    // be; a struct with one such field does not.
    self = unsafeBitCast(_IsolatedBody(body: body), to: Self.self)
  }
}

/// A body that carries its isolation, as the one field of a struct: laid
/// out as ``_QueuedBroadcast``, whose body is the same function, isolation
/// dropped.
@usableFromInline
struct _IsolatedBody<Observer> {
  @usableFromInline let body: @isolated(any) @Sendable (Observer) -> Void

  @inlinable init(body: @escaping @isolated(any) @Sendable (Observer) -> Void) {
    self.body = body
  }
}
