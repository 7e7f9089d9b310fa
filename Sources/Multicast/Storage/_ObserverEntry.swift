// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// One registration's object in an ``_ObserverBuffer``: a weak reference and
/// the identity it had (the owner's registrations: the identity alone).
///
/// Not generic, so that specialized code moves it field by field rather than
/// through a generic value witness.
@usableFromInline
struct _ObserverEntry {
  /// The registered object, set when the entry is made; `nil` for the
  /// owner's entries.
  @usableFromInline
  weak var object: AnyObject?
  /// The object's identity, still known after it is gone.
  @usableFromInline
  let key: ObjectIdentifier

  init(object: AnyObject) {
    self.object = object
    self.key = ObjectIdentifier(object)
  }

  /// An entry of the storage's owner (``_ObserverStorage/setOwner(_:)``),
  /// with no weak reference.
  init(ownerKey key: ObjectIdentifier) {
    self.key = key
  }
}
