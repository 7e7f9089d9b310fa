// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

/// Which destination a subscription runs on, as it records it: its actor's
/// identity, or ``noActor``; a dead actor's identity may be reused (D7).
struct _IsolationKey: Hashable, Sendable {
  let actor: ObjectIdentifier?

  init(_ isolation: (any Actor)?) {
    actor = isolation.map { ObjectIdentifier($0) }
  }

  init(actor: ObjectIdentifier?) {
    self.actor = actor
  }

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
    // Two words, identity and implementation; the cast traps otherwise.
    address = unsafeBitCast(executor, to: (UnsafeRawPointer?, UInt).self).0
  }

  /// Whether the caller runs on this executor (README.md, section 1); the
  /// runtime's answer (`swift_task_getCurrentExecutor`) never traps.
  func isCurrent(isMainActor: Bool) -> Bool {
    if let current = _multicast_current_executor() { return current == address }
    return isMainActor && _multicast_is_main_thread()
  }
}
