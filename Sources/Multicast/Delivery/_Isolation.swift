// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

/// Which destination a subscription runs on, as it records it: its actor's
/// identity, or ``noActor``.
///
/// A new actor may reuse a dead one's identity. An event never holds two
/// destinations of one identity, and drops a destination only with the last
/// registration that records it, so no registration of the dead actor is
/// left when the new one's destination is made (D6, D7).
struct _IsolationKey: Hashable, Sendable {
  let actor: ObjectIdentifier?

  /// The key of code whose isolation is `isolation`.
  init(_ isolation: (any Actor)?) {
    actor = isolation.map { ObjectIdentifier($0) }
  }

  init(actor: ObjectIdentifier?) {
    self.actor = actor
  }

  /// The isolation of code isolated to no actor.
  static let noActor = _IsolationKey(actor: nil)
}

/// Where code runs, as the concurrency runtime tells it: the identity of a
/// serial executor, which two actors may share.
struct _ExecutorIdentity: Equatable, @unchecked Sendable {
  // @unchecked Sendable: an address compared, never dereferenced.
  let address: UnsafeRawPointer?

  init(of actor: any Actor) {
    self.init(actor.unownedExecutor)
  }

  init(_ executor: UnownedSerialExecutor) {
    // Two words, the identity and the implementation; `unsafeBitCast`
    // traps if a platform lays it out otherwise.
    address = unsafeBitCast(executor, to: (UnsafeRawPointer?, UInt).self).0
  }

  /// Whether the caller runs on this executor: the runtime's executor of the
  /// current job (`swift_task_getCurrentExecutor`, which never traps), or,
  /// for code that runs no job, the main thread for the main actor.
  func isCurrent(isMainActor: Bool) -> Bool {
    if let current = _multicast_current_executor() { return current == address }
    return isMainActor && _multicast_is_main_thread()
  }
}
