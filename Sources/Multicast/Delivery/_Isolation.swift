// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

internal import _MulticastAtomics

/// Which destination a subscription belongs to, as it records it: the
/// identity of an actor's ``_Destination``, or ``noActor``.
///
/// A destination's identity, not its actor's: an actor's address may be
/// reused by a new actor once it dies, while the destination, which every
/// event with subscriptions there holds as a destination, lives on and is never
/// taken for the new actor's. Recording it keeps no actor alive, and
/// comparing it touches no reference count.
struct _IsolationKey: Hashable, Sendable {
  /// The destination's identity, or `nil` for code isolated to no actor.
  let destination: ObjectIdentifier?

  /// The key of `destination`, which belongs to an actor.
  init(destination: _Destination) {
    self.destination = ObjectIdentifier(destination)
  }

  /// The key of an object that is no destination: one that no subscription
  /// has.
  init(unmatched object: AnyObject) {
    destination = ObjectIdentifier(object)
  }

  private init() { destination = nil }

  /// The isolation of code isolated to no actor.
  static let noActor = _IsolationKey()
}

/// Where code runs, as the concurrency runtime tells it: the identity of a
/// serial executor.
///
/// An actor's executor identity is the actor itself for a default actor, or
/// the executor it names (the main actor's is the main queue). Two actors
/// that share an executor share one identity: they are one place to run.
struct _ExecutorIdentity: Equatable, @unchecked Sendable {
  // @unchecked Sendable: an address compared, never dereferenced.
  let address: UnsafeRawPointer?

  /// The identity of `actor`'s executor.
  init(of actor: any Actor) {
    self.init(actor.unownedExecutor)
  }

  init(_ executor: UnownedSerialExecutor) {
    // An unowned executor reference is two words, the identity and the
    // implementation; `unsafeBitCast` traps if a platform lays it out
    // otherwise.
    address = unsafeBitCast(executor, to: (UnsafeRawPointer?, UInt).self).0
  }

  /// Whether the caller runs on this executor, as the concurrency runtime
  /// tracks it.
  ///
  /// This asks the runtime for the executor that is running the current job
  /// (`swift_task_getCurrentExecutor`, in every concurrency runtime back to
  /// the first); it never crashes, unlike the check behind
  /// `MainActor.assumeIsolated`, which may trap on a mismatch. Code that runs
  /// no job (a thread of its own, a callback from C) has no tracked
  /// executor; on the process's main thread the runtime counts such code as
  /// the main actor's, and so does this, for `isMainActor`.
  func isCurrent(isMainActor: Bool) -> Bool {
    if let current = _multicast_current_executor() { return current == address }
    return isMainActor && _multicast_is_main_thread()
  }
}
