// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A broadcast queued for an actor: its body, isolation dropped and called
/// only there (D3), two words in a job with no box, spelled with `Observer` as
/// in the methods that take it so that storing it needs no thunk.
@usableFromInline
struct _QueuedBroadcast<Observer>: Sendable {
  @usableFromInline let body: @Sendable (Observer) -> Void

  @inlinable
  init(mainActor body: @escaping @MainActor @Sendable (Observer) -> Void) {
    self.body = unsafeBitCast(body, to: (@Sendable (Observer) -> Void).self)
  }

  @inlinable
  init(isolatedToAny body: @escaping @isolated(any) @Sendable (Observer) -> Void) {
    // Cast as a struct: before macOS 15 a function type that carries its
    // isolation may not be a generic argument, as a cast's is; a struct may.
    self = unsafeBitCast(IsolatedBody(body: body), to: Self.self)
  }

  /// A body that carries its isolation, laid out as the broadcast.
  @usableFromInline
  struct IsolatedBody {
    @usableFromInline let body: @isolated(any) @Sendable (Observer) -> Void

    @inlinable init(body: @escaping @isolated(any) @Sendable (Observer) -> Void) {
      self.body = body
    }
  }
}
