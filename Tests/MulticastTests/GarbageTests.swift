// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// How many objects of a test are alive.
private final class GarbageTestTally {
  var alive = 0
}

/// An object that its tally counts while it lives.
private final class GarbageTestObject {
  let tally: GarbageTestTally
  init(_ tally: GarbageTestTally) {
    self.tally = tally
    tally.alive += 1
  }
  deinit { tally.alive -= 1 }
}

private typealias GarbageTestStorage = _ObserverStorage<GarbageTestObject, _Unindexed>

@Suite("What a mutation drops waits for its end")
struct GarbageTests {
  @Test("A sweep's strong references live until the garbage goes, and then all go")
  func sweptReferencesGoTogether() {
    let tally = GarbageTestTally()
    var objects = (0..<5).map { _ in GarbageTestObject(tally) }
    var garbage = GarbageTestStorage.Garbage()
    garbage.reserveObjects(objects.count)
    for object in objects { garbage.keep(object: object) }
    objects.removeAll()
    #expect(tally.alive == 5)
    _ = consume garbage
    #expect(tally.alive == 0)
  }

  @Test(
    "Room reserved after payloads and buffers were dropped keeps them, and room reserved twice keeps the references already taken"
  )
  func reservingAfterOtherGarbage() {
    let tally = GarbageTestTally()
    var garbage = GarbageTestStorage.Garbage()
    // The first payload is kept inline; the second makes the heap.
    garbage.keep(GarbageTestObject(tally))
    garbage.keep(GarbageTestObject(tally))
    let buffer = GarbageTestStorage.Buffer.allocate(capacity: 4)
    buffer.append(
      GarbageTestObject(tally), payload: GarbageTestObject(tally), stamp: _EntryStamp(sequence: 0))
    garbage.keep(buffer: buffer)
    #expect(tally.alive == 3)

    var objects = (0..<3).map { _ in GarbageTestObject(tally) }
    garbage.reserveObjects(2)
    garbage.keep(object: objects[0])
    garbage.keep(object: objects[1])
    garbage.reserveObjects(1)
    garbage.keep(object: objects[2])
    objects.removeAll()
    // Two payloads, the buffer's payload (its object is held weakly, so it
    // is gone) and the three references.
    #expect(tally.alive == 6)
    _ = consume garbage
    #expect(tally.alive == 0)
  }
}
