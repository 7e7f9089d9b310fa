import Synchronization

/// One registration: a weak reference to an object, a word of state and a payload.
///
/// A cell is shared by every buffer that lists it, so a removal marked on it is
/// seen by a broadcast that is iterating an older buffer. Its state word holds
/// two flag bits (``_ObserverCell/removedBit`` and ``_ObserverCell/dynamicCastBit``)
/// and, above them, the bits a face needs to rebuild the observer without a
/// runtime cast (a witness table pointer, which is at least 4-byte aligned).
@usableFromInline
final class _ObserverCell<Payload> {
  /// The registered object, set once.
  ///
  /// Loading a weak reference is safe while another thread is releasing the
  /// object: the runtime makes that load atomic.
  private weak let object: AnyObject?
  /// Written once at creation except for ``removedBit``, which is set with the
  /// storage's lock held and read without it by broadcasts.
  private let state: Atomic<UInt>
  /// What a face attaches to the registration (nothing for `MulticastDelegate`).
  @usableFromInline
  let payload: Payload

  /// The cell was removed; broadcasts skip it.
  static var removedBit: UInt { 1 }
  /// The observer cannot be rebuilt from its bits and needs a runtime cast.
  @usableFromInline
  static var dynamicCastBit: UInt { 2 }
  /// The bits of the state word that are flags.
  @usableFromInline
  static var flagBits: UInt { 3 }

  init(object: AnyObject, word: UInt, payload: Payload) {
    precondition(word & Self.removedBit == 0, "a new cell cannot start removed")
    self.object = object
    self.state = Atomic(word)
    self.payload = payload
  }

  /// The object and the state word, or `nil` if the cell was removed or its
  /// object was deallocated.
  ///
  /// The object is returned strongly: it stays alive
  /// until the caller lets go of it.
  @usableFromInline
  func load() -> (object: AnyObject, word: UInt)? {
    let word = state.load(ordering: .acquiring)
    guard word & Self.removedBit == 0, let object else { return nil }
    return (object, word)
  }

  /// The object, whether or not the cell was removed.
  var referent: AnyObject? { object }

  var isRemoved: Bool { state.load(ordering: .acquiring) & Self.removedBit != 0 }

  /// Marks the cell removed.
  ///
  /// Call with the storage's lock held.
  func markRemoved() {
    _ = state.bitwiseOr(Self.removedBit, ordering: .releasing)
  }
}
