public import Synchronization

/// The bits of an entry's state word.
///
/// The two low bits are flags. The rest holds whatever a face needs to rebuild
/// its observer without a runtime cast: a witness table pointer, which is at
/// least 4-byte aligned, or zero.
@usableFromInline
enum _ObserverState {
  /// The entry was removed; broadcasts skip it.
  @usableFromInline
  static var removedBit: UInt { 1 }
  /// The observer cannot be rebuilt from its bits and needs a runtime cast.
  @usableFromInline
  static var dynamicCastBit: UInt { 2 }
  /// The bits of the state word that are flags.
  @usableFromInline
  static var flagBits: UInt { 3 }
}

/// One registration, stored inline in an ``_ObserverBuffer``: a weak reference
/// to an object, a word of state, its place in registration order, its key
/// and a payload.
@usableFromInline
struct _ObserverEntry<Payload>: ~Copyable {
  /// The registered object, set once.
  ///
  /// Loading a weak reference is safe while another thread is releasing the
  /// object: the runtime makes that load atomic.
  @usableFromInline
  weak var object: AnyObject?
  /// Written once at creation except for the removed flag, which is set with
  /// the storage's lock held and read without it by broadcasts.
  @usableFromInline
  let state: Atomic<UInt>
  /// The entry's place in registration order: unique and increasing within a
  /// storage, kept when the entry moves to a new buffer.
  @usableFromInline
  let sequence: UInt64
  /// The identity of the object when it was registered; still known after
  /// the object is gone, when `object` reads `nil`.
  let key: ObjectIdentifier
  /// What a face attaches to the registration (nothing for `MulticastDelegate`).
  @usableFromInline
  let payload: Payload

  init(object: AnyObject, state: UInt, sequence: UInt64, payload: Payload) {
    self.object = object
    self.state = Atomic(state)
    self.sequence = sequence
    self.key = ObjectIdentifier(object)
    self.payload = payload
  }

  /// The object and the state word, or `nil` if the entry was removed or its
  /// object was deallocated.
  ///
  /// The object is returned strongly: it stays alive until the caller lets go.
  @inlinable
  func load() -> (object: AnyObject, word: UInt)? {
    let word = state.load(ordering: .acquiring)
    guard word & _ObserverState.removedBit == 0, let object else { return nil }
    return (object, word)
  }

  var isRemoved: Bool {
    state.load(ordering: .acquiring) & _ObserverState.removedBit != 0
  }

  /// Marks the entry removed.
  ///
  /// Call with the storage's lock held.
  func markRemoved() {
    _ = state.bitwiseOr(_ObserverState.removedBit, ordering: .releasing)
  }
}
