// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// One registration's object: a weak reference and the identity it had.
///
/// Not generic, so that specialized code moves it field by field, not by a value witness.
@usableFromInline
struct _ObserverEntry {
  /// The registered object; `nil` for the host's entries.
  @usableFromInline
  weak var object: AnyObject?
  /// The object's identity, still known after it is gone.
  @usableFromInline
  let key: ObjectIdentifier

  init(object: AnyObject) {
    self.object = object
    self.key = ObjectIdentifier(object)
  }

  /// A host's entry (``_ObserverStorage/setHost(_:)``): no weak reference.
  init(hostKey key: ObjectIdentifier) {
    self.key = key
  }
}
