// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _ObserverStorage {
  /// What a mutation drops, released after the lock is: anything whose
  /// deinitializer may run user code and call back into the storage.
  ///
  /// Every mutation makes one and destroys it, so the common cases keep it
  /// to two words: a single payload dropped (a removal) is kept inline, and
  /// the rest (a sweep's strong references, more payloads, retired
  /// buffers) goes to a ``Heap`` made only when needed, in one allocation.
  struct Garbage: ~Copyable {
    /// The first payload dropped that is not plain data.
    var payload: Payload?
    /// Everything else, if anything else was dropped.
    private var heap: Heap?

    /// What a mutation drops beyond one payload: the strong references a
    /// sweep took while telling live entries from dead ones, in the
    /// allocation's tail, sized for them, and the rest in its header.
    final class Heap: ManagedBuffer<HeapHeader, AnyObject> {
      deinit {
        withUnsafeMutablePointers { header, objects in
          objects.deinitialize(count: header.pointee.objectCount)
          for buffer in header.pointee.buffers { buffer.deallocate() }
        }
      }

      /// A heap with room for `capacity` strong references.
      static func make(capacity: Int) -> Heap {
        let made = create(minimumCapacity: capacity) { _ in HeapHeader(objectCapacity: capacity) }
        return unsafeDowncast(made, to: Heap.self)
      }
    }

    /// What a ``Heap`` holds besides strong references.
    struct HeapHeader {
      /// The payloads after the first.
      var payloads: [Payload] = []
      /// Buffers to free, with the entries left in them.
      var buffers: [Buffer] = []
      /// How many strong references are kept.
      var objectCount = 0
      /// How many strong references there is room for.
      let objectCapacity: Int
    }

    /// The heap, made on first use.
    private var madeHeap: Heap {
      mutating get {
        if let heap { return heap }
        let made = Heap.make(capacity: 0)
        heap = made
        return made
      }
    }

    /// Keeps `dropped`, to be released after unlocking.
    mutating func keep(_ dropped: consuming Payload) {
      if payload == nil { payload = dropped } else { madeHeap.header.payloads.append(dropped) }
    }

    /// Makes room for `count` more strong references, which a sweep keeps
    /// with ``keep(object:)``.
    mutating func reserveObjects(_ count: Int) {
      let kept = heap?.header.objectCount ?? 0
      guard kept + count > heap?.header.objectCapacity ?? 0 else { return }
      let grown = Heap.make(capacity: kept + count)
      if let heap {
        // Rare: a heap made earlier in the mutation moves to the new one.
        grown.withUnsafeMutablePointers { header, objects in
          heap.withUnsafeMutablePointers { keptHeader, keptObjects in
            objects.moveInitialize(from: keptObjects, count: kept)
            header.pointee.objectCount = kept
            keptHeader.pointee.objectCount = 0
            swap(&header.pointee.payloads, &keptHeader.pointee.payloads)
            swap(&header.pointee.buffers, &keptHeader.pointee.buffers)
          }
        }
      }
      heap = grown
    }

    /// Keeps a strong reference, to be released after unlocking, in the
    /// room ``reserveObjects(_:)`` made.
    mutating func keep(object: consuming AnyObject) {
      guard let heap else { preconditionFailure("no room reserved for references") }
      // The slot outlives the closure, not the heap, which this value holds.
      let slot = heap.withUnsafeMutablePointers { header, objects in
        let count = header.pointee.objectCount
        precondition(
          count < header.pointee.objectCapacity, "more references than the room reserved")
        header.pointee.objectCount = count + 1
        return objects + count
      }
      slot.initialize(to: object)
    }

    /// Keeps `buffer`, to be freed after unlocking.
    mutating func keep(buffer: Buffer) {
      madeHeap.header.buffers.append(buffer)
    }
  }
}
