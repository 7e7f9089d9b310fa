// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What a send's section decided (README.md, section 3): the destinations it
/// delivers itself, where it runs, and those it queued for.
@usableFromInline
struct _LocalSend: ~Copyable {
  /// A walk of the subscriptions of an event, begun without or with the lock.
  typealias Cursor = _BroadcastCursor<_Subscriber, _NoIndex>

  /// One destination the send delivers itself.
  struct Claimed {
    let destination: _Destination
    /// Whether the send skips the queue: nothing waited, so a walk delivers
    /// it from its own value; otherwise `batch` holds what waited, then it.
    let skipsQueue: Bool
    var batch: [_DeliveryJob]
  }

  let end: UInt64
  var first: Claimed?
  var second: Claimed?
  /// Any more: only actors that share the sender's executor make more than two.
  var others: [Claimed] = []
  /// Destinations of other actors where the send scheduled a drain.
  var idle: [_Destination]? = nil
  /// Destinations of actors found gone, where it queued nothing (D7).
  var orphans: [_CoreState.Subscribed]? = nil
  /// The actors the section loaded, and the values a send replaced (`latest`,
  /// or in waiting jobs): released after unlocking (D12).
  var loaded: [any Actor]? = nil
  var replaced: AnyObject? = nil
  /// The walk of a send that skips the queue, begun in its section (D5).
  var cursor: Cursor?
}

/// A key that matches no subscription: the address of a type's metadata,
/// where no actor can be.
let noDestination = _IsolationKey(actor: ObjectIdentifier(_LocalSend.self))
