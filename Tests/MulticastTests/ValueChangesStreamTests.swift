// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

@Suite("A value's changes as an event")
struct ValueChangesStreamTests {
  @Test("volume.changes.values streams the changes to another task, in order, as the README says")
  func changesAsAnAsyncSequence() async {
    let volume = ObservableValue(0.5)
    let changes = volume.changes.values  // subscribed from here on
    let heard = Task {
      var heard: [String] = []
      for await change in changes {
        heard.append("\(change.old) -> \(change.new)")
        if heard.count == 2 { break }
      }
      return heard
    }
    volume.value = 0.7
    volume.value = 0.9
    #expect(await heard.value == ["0.5 -> 0.7", "0.7 -> 0.9"])
  }
}
