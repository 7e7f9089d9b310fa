// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// One registration's object, stored inline in an ``_ObserverBuffer``: a weak
/// reference to it and the identity it had; or, for the storage owner's own
/// registrations, the identity alone.
///
/// The rest of the registration lies beside it in the buffer: its place in
/// registration order and its flags in an ``_EntryStamp``, which broadcasts
/// read atomically, and what a face attaches, its payload. The entry is not
/// generic, so that specialized code moves it field by field rather than
/// through a generic value witness.
@usableFromInline
struct _ObserverEntry {
  /// The registered object, set once; `nil` from the start for an entry of
  /// the storage's owner.
  ///
  /// Loading a weak reference is safe while another thread is releasing the
  /// object: the runtime makes that load atomic. Nothing writes it while a
  /// broadcast may read it: entries are written only before the critical
  /// section that publishes their count ends, or moved when no broadcast can
  /// read the buffer.
  @usableFromInline
  weak var object: AnyObject?
  /// The identity of the object when it was registered; still known after
  /// the object is gone, when `object` reads `nil`.
  @usableFromInline
  let key: ObjectIdentifier

  init(object: AnyObject) {
    self.object = object
    self.key = ObjectIdentifier(object)
  }

  /// An entry of the storage's owner, whose identity is `key`: it holds no
  /// weak reference (`object` reads `nil`), since the owner is alive
  /// whenever its storage is used (see ``_ObserverStorage/setOwner(_:)``).
  init(ownerKey key: ObjectIdentifier) {
    self.key = key
  }
}
