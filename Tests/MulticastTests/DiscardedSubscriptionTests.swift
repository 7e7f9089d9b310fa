// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

// The trap that the Concurrency article's "Common errors" warns of: the
// compiler's fix-it for an unused subscription, `_ =`, ends it at once.

@Suite("A subscription discarded with `_ =`")
struct DiscardedSubscriptionTests {
  @Test("A value's closure subscription assigned to _ ends at once: nothing is heard")
  func valueSubscription() {
    let volume = ObservableValue(0.5)
    var heard: [String] = []
    _ = volume.observe { old, new in heard.append("\(old) -> \(new)") }
    volume.value = 0.7
    #expect(heard.isEmpty)
    #expect(!volume.changes.hasObservers)
  }

  @Test("An event's closure subscription assigned to _ ends at once: nothing is heard")
  func eventSubscription() {
    let tick = EventSender<Int>()
    var heard: [Int] = []
    _ = tick.event.observe { heard.append($0) }
    tick.send(1)
    #expect(heard.isEmpty)
    #expect(!tick.hasObservers)
  }

  @Test("The target form's subscription may be discarded: it lasts while its target lives")
  func targetForm() {
    final class Label {
      var text = ""
    }
    let volume = ObservableValue(0.5)
    let label = Label()
    _ = volume.observe(label) { label, _, new in label.text = "\(new)" }
    volume.value = 0.7
    #expect(label.text == "0.7")
  }
}
