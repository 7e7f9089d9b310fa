// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

@Suite("Observable values")
struct ObservableValueTests {
  @Test("Observers get the old and the new value")
  func oldAndNew() {
    let volume = ObservableValue(0.5)
    var changes: [String] = []
    let subscription = volume.observe { old, new in changes.append("\(old) -> \(new)") }
    volume.value = 0.7
    volume.value = 0.7
    #expect(changes == ["0.5 -> 0.7", "0.7 -> 0.7"])
    #expect(volume.value == 0.7)
    withExtendedLifetime(subscription) {}
  }

  @Test("Releasing or cancelling the token ends the observation")
  func byToken() {
    let value = ObservableValue("a")
    var seen: [String] = []
    var subscription: EventSubscription? = value.observe { _, new in seen.append(new) }
    value.value = "b"
    subscription = nil
    value.value = "c"
    let other = value.observe { _, new in seen.append("other " + new) }
    other.cancel()
    value.value = "d"
    #expect(seen == ["b"])
    _ = subscription
  }

  @Test("Removing an owner's observers ends them, and an owner's death does too")
  func byOwner() {
    let log = Log()
    let value = ObservableValue(0)
    let kept = Listener("kept", log: log)
    var owner: Listener? = Listener("owner", log: log)
    value.observe(kept) { me, old, new in me.log.append("\(me.name) \(old)->\(new)") }
    value.observe(owner!) { me, old, new in me.log.append("\(me.name) \(old)->\(new)") }
    value.value = 1
    #expect(value.removeObservers(kept) == 1)
    value.value = 2
    owner = nil
    value.value = 3
    #expect(log.entries == ["kept 0->1", "owner 0->1", "owner 1->2"])
  }

  @Test(
    "An observer that sets the value: its change goes after the one in progress, so every observer ends at the current value"
  )
  func nestedChange() {
    let value = ObservableValue(0)
    var seen: [String] = []
    let a = value.observe { old, new in
      seen.append("a \(old)->\(new)")
      if new == 1 { value.value = 2 }
    }
    let b = value.observe { old, new in seen.append("b \(old)->\(new)") }
    value.value = 1
    #expect(seen == ["a 0->1", "b 0->1", "a 1->2", "b 1->2"])
    #expect(value.value == 2)
    withExtendedLifetime((a, b)) {}
  }

  @Test("Changes can be read as a stream")
  func changesAsValues() async {
    let value = ObservableValue(1)
    var iterator = value.changes.values.makeAsyncIterator()
    value.value = 2
    let change = await iterator.next()
    #expect(change?.old == 1 && change?.new == 2)
  }
}
