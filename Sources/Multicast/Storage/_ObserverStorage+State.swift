// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _ObserverStorage {
  /// What the lock guards.
  @usableFromInline
  struct State {
    /// The buffer that registrations go to and broadcasts start from.
    @usableFromInline
    var buffer: Buffer
    @usableFromInline
    let readers: _ReaderSlots
    /// The epoch that new broadcasts count themselves in (0 or 1).
    @usableFromInline
    var epoch: UInt64 = 0
    /// Whether `buffer` became current at or after the last flip (I7).
    var isBufferNewerThanFlip = true
    /// Buffers retired before the last flip (I7).
    var retiredBeforeFlip: [Buffer] = []
    /// Buffers retired since the last flip: they wait for the next.
    var retiredSinceFlip: [Buffer] = []
    #if MULTICAST_INTERNAL_CHECKS
    /// What the invariant checks remember within one section.
    @usableFromInline
    let section = _SectionRecord()
    #endif
    @usableFromInline
    var nextSequence: UInt64 = 0
    /// The number of removals, a sweep's excepted.
    var removals: UInt64 = 0
    var tombstones = 0
    var liveAtLastSweep = 0
    var registrationsSinceSweep = 0
    /// The host (``_ObserverStorage/setHost(_:)``), unretained: it keeps the storage.
    var host: Unmanaged<AnyObject>? = nil
    /// The host's identity; written once, before the storage is shared.
    @usableFromInline
    var hostKey: ObjectIdentifier? = nil
    /// What the host guards with this lock besides the registrations.
    @usableFromInline
    var guarded: Guarded

    #if DEBUG
    /// Run by a broadcast begun without the lock before it counts itself; set by tests.
    @usableFromInline
    var beforeCounting: (() -> Void)? = nil
    /// Run after it reads the words, before it reads the version again.
    @usableFromInline
    var afterReadingWords: (() -> Void)? = nil
    /// What a sweep runs between its walk and its section.
    var betweenSweepPhases: (() -> Void)? = nil
    #endif

    /// Changed by every registration and removal but a sweep's, and by nothing else.
    var changes: UInt64 { nextSequence &+ removals }

    init(buffer: Buffer, readers: _ReaderSlots, guarded: Guarded) {
      self.buffer = buffer
      self.readers = readers
      self.guarded = guarded
    }
  }
}
