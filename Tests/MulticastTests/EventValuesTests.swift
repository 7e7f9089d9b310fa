// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

@Suite("Event values as an asynchronous sequence")
struct EventValuesTests {
  @Test("Values sent are read in order")
  func valuesInOrder() async {
    let sender = EventSender<Int>()
    let stream = sender.event.values
    for value in 1...3 { sender.send(value) }
    var iterator = stream.makeAsyncIterator()
    var read: [Int] = []
    for _ in 1...3 { read.append(await iterator.next() ?? -1) }
    #expect(read == [1, 2, 3])
  }

  @Test("A stream made before the task that reads it misses nothing sent meanwhile")
  func streamMadeBeforeItsTask() async {
    let sender = EventSender<Int>()
    let counts = sender.event.values
    let reader = Task {
      var read: [Int] = []
      for await count in counts {
        read.append(count)
        if read.count == 3 { break }
      }
      return read
    }
    // Sent before the task may have started: the stream buffers them.
    for value in 1...3 { sender.send(value) }
    #expect(await reader.value == [1, 2, 3])
  }

  @Test("The buffering policy decides what is kept for a slow reader")
  func bufferingNewest() async {
    let sender = EventSender<Int>()
    let stream = sender.event.values(bufferingPolicy: .bufferingNewest(2))
    for value in 1...5 { sender.send(value) }
    var iterator = stream.makeAsyncIterator()
    let first = await iterator.next()
    let second = await iterator.next()
    #expect([first, second] == [4, 5])
  }

  @Test("Cancelling the reading task ends the subscription: no leak, no delivery")
  func cancellationEndsSubscription() async {
    let log = Log()
    let sender = EventSender<Int>(onLastObserverGone: { log.append("last") })
    let stream = sender.event.values
    #expect(sender.hasObservers)
    sender.send(1)
    let reader = Task {
      var read: [Int] = []
      for await value in stream { read.append(value) }
      return read
    }
    reader.cancel()
    _ = await reader.value
    #expect(!sender.hasObservers)
    sender.send(2)
    #expect(log.entries == ["last"])
    sender.checkInvariants()
  }

  @Test("A stream dropped unread ends its subscription")
  func droppedStream() {
    let sender = EventSender<Int>()
    do {
      let stream = sender.event.values
      #expect(sender.hasObservers)
      withExtendedLifetime(stream) {}
    }
    #expect(!sender.hasObservers)
  }
}
