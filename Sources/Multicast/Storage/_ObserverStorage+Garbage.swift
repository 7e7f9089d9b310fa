// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

extension _ObserverStorage {
  /// What a mutation drops, released after unlocking (README.md, section 2).
  ///
  /// One payload is kept inline, the rest in a ``Heap`` made only when needed.
  struct Garbage: ~Copyable {
    /// The first payload dropped that is not plain data.
    var payload: Payload?
    private var heap: Heap?

    final class Heap {
      var payloads: [Payload] = []
      /// Buffers to free, with the entries left in them.
      var buffers: [Buffer] = []

      deinit {
        for buffer in buffers { buffer.deallocate() }
      }
    }

    private var madeHeap: Heap {
      mutating get {
        if let heap { return heap }
        let made = Heap()
        heap = made
        return made
      }
    }

    mutating func keep(_ dropped: consuming Payload) {
      if payload == nil { payload = dropped } else { madeHeap.payloads.append(dropped) }
    }

    mutating func keep(buffer: Buffer) {
      madeHeap.buffers.append(buffer)
    }
  }
}
