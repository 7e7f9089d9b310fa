// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A broadcast bound for the main actor, waiting its turn: what it does with
/// each observer.
///
/// The body's type is spelled with `Observer`, as in the method that takes
/// it, so that storing it needs no reabstraction thunk; in a job's `Any` it
/// takes two words, so it needs no box either.
struct _MainActorDelivery<Observer>: Sendable {
  let body: @MainActor @Sendable (Observer) -> Void
}

/// A broadcast bound for the actor its body is isolated to, waiting its
/// turn: what it does with each observer.
///
/// The body is `@isolated(any)`: it carries its actor, which the destination
/// is chosen by, and it can only be awaited. Kept in a struct, not as a
/// generic argument, since function types like it need a newer runtime as
/// generic arguments; the struct's layout needs no metadata of the function
/// type.
struct _ActorDelivery<Observer>: Sendable {
  let body: @isolated(any) @Sendable (Observer) -> Void
}
