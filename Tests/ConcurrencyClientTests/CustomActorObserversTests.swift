// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

@Suite("Observers on a custom global actor")
struct CustomActorObserversTests {
  @Test("A detached task's broadcasts reach the store's observers in the order it made them")
  func fromADetachedTask() async {
    let inventory = Inventory()
    let levels = StockLevels()
    inventory.addObserver(levels)
    await Task.detached {
      for count in 1...300 { inventory.receive(count, of: "pears") }
    }.value
    await inventory.delivered()
    #expect(await levels.received == (1...300).map { "\($0) pears" })
  }

  @Test("Observers removed or released while broadcasts wait are not called")
  @Store
  func removedOrReleasedWhileQueued() async {
    let inventory = Inventory()
    let (kept, removed) = (StockLevels(), StockLevels())
    var released: StockLevels? = StockLevels()
    weak let watched = released
    inventory.addObserver(kept)
    inventory.addObserver(removed)
    inventory.addObserver(released!)
    // Made on the store's actor: queued until this test suspends.
    inventory.receive(3, of: "plums")
    inventory.removeObserver(removed)
    released = nil
    #expect(watched == nil, "a queued broadcast kept an observer alive")
    await inventory.delivered()
    #expect(kept.received == ["3 plums"])
    #expect(removed.received.isEmpty)
  }
}
