// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _ObserverStorage {
  /// What the lock guards.
  @usableFromInline
  struct State {
    /// The buffer that registrations go to and broadcasts start from.
    @usableFromInline
    var buffer: Buffer
    /// The broadcasts under way, and the words they begin with.
    @usableFromInline
    let readers: _ReaderSlots
    /// The epoch that new broadcasts count themselves in (0 or 1).
    @usableFromInline
    var epoch: UInt64 = 0
    /// Whether only broadcasts counted in ``epoch`` can read `buffer`: it was
    /// made current after the epoch last flipped, or in the section that
    /// flipped it, so every broadcast counted in the other epoch began in an
    /// older buffer (and counts itself again if it goes on in this one).
    var isBufferNewerThanFlip = true
    /// Buffers replaced while broadcasts may read them, replaced before the
    /// epoch last flipped: freed once no broadcast is counted in the other
    /// epoch.
    var retiredBeforeFlip: [Buffer] = []
    /// Buffers replaced while broadcasts may read them, since the epoch last
    /// flipped: they wait for the next flip.
    var retiredSinceFlip: [Buffer] = []
    #if MULTICAST_INTERNAL_CHECKS
    /// What the invariant checks remember within one section.
    @usableFromInline
    let section = _SectionRecord()
    #endif
    /// The sequence number of the next registration.
    @usableFromInline
    var nextSequence: UInt64 = 0
    /// The number of registrations removed, by their owners or by a
    /// removal of all; a sweep's, of registrations already dead, do not
    /// count.
    var removals: UInt64 = 0
    /// The number of entries in `buffer` flagged removed.
    var tombstones = 0
    /// How many entries were alive at the last sweep.
    var liveAtLastSweep = 0
    /// How many registrations were made since the last sweep.
    var registrationsSinceSweep = 0
    /// The object that owns the storage, if it said so with
    /// ``_ObserverStorage/setOwner(_:)``; not retained: it keeps the storage.
    var owner: Unmanaged<AnyObject>? = nil
    /// The owner's identity, which its registrations are filed under;
    /// written once, before the storage is shared.
    @usableFromInline
    var ownerKey: ObjectIdentifier? = nil

    #if DEBUG
    /// What a broadcast that begins without the lock runs in debug builds.
    ///
    /// It runs after the broadcast reads the version and before it counts
    /// itself: tests put critical sections in that window. Set before the
    /// storage is shared.
    @usableFromInline
    var beforeCounting: (() -> Void)? = nil
    /// What such a broadcast runs after it reads the published words and
    /// before it checks the version again, in debug builds.
    @usableFromInline
    var afterReadingWords: (() -> Void)? = nil
    /// What a sweep runs in debug builds after it has loaded every object,
    /// and let each go, and before it takes the lock.
    var betweenSweepPhases: (() -> Void)? = nil
    #endif

    /// A number that every registration and every removal changes, and
    /// nothing else does: a query that reads it twice, unchanged, saw one
    /// set of registrations between.
    var changes: UInt64 { nextSequence &+ removals }

    init(buffer: Buffer, readers: _ReaderSlots) {
      self.buffer = buffer
      self.readers = readers
    }
  }
}
