// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

/// Which destination a subscription runs on, as it records it: the identity
/// of an actor's ``_Destination``, or ``noActor``.
///
/// Never the actor's identity, which a new actor may reuse (D7).
struct _IsolationKey: Hashable, Sendable {
  let destination: ObjectIdentifier?

  init(destination: _Destination) {
    self.destination = ObjectIdentifier(destination)
  }

  /// A key that no subscription has.
  init(unmatched object: AnyObject) {
    destination = ObjectIdentifier(object)
  }

  private init() { destination = nil }

  /// The isolation of code isolated to no actor.
  static let noActor = _IsolationKey()
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
