// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

@testable import TimeOperators

/// The facts of artman/Signals' sampling tests, on values.
///
/// Its `SignalQueueTests` (at e792eb5) sample a signal; here an event's
/// `values` are sampled with `sample(every:clock:)`. The library's own
/// suite ports the rest (`SignalsPortTests`).
///
/// Not ported: `testNoQueueTimeFiring`, which samples every 0 seconds, that
/// is, on the next turn of a dispatch queue; an interval of zero here
/// samples without pause.
@Suite("The facts of artman/Signals' sampling tests, on values")
struct SignalsSamplingTests {
  /// Samples `event` every 100 ms of `clock` in a task of its own, and
  /// returns what it hears, the task, and a stream that says when the
  /// sampler asks for the event's next value.
  func sampling<Value: Sendable>(
    _ event: Event<Value>, clock: ManualClock
  ) -> (heard: AsyncStream<Value>, task: Task<Void, Never>, requests: AsyncStream<Int>) {
    let (requests, requested) = AsyncStream.makeStream(of: Int.self)
    let (heard, hear) = AsyncStream.makeStream(of: Value.self)
    let values = Probed(base: event.values, requests: requested)
    let task = Task {
      do {
        for try await value in values.sample(every: .milliseconds(100), clock: clock) {
          // Chunks flush what they hold when their base ends, as it does
          // when the task is cancelled: a cancelled listener hears nothing.
          if Task.isCancelled { break }
          hear.yield(value)
        }
      } catch {
        // The probe passes on the stream's elements and throws nothing.
      }
      hear.finish()
    }
    return (heard, task, requests)
  }

  /// Ends `task` and returns everything heard.
  func ending<Value>(_ task: Task<Void, Never>, _ heard: AsyncStream<Value>) async -> [Value] {
    task.cancel()
    await task.value
    var all: [Value] = []
    for await value in heard { all.append(value) }
    return all
  }

  // Signals: testBasicFiring
  @Test("A value is heard at the end of the interval")
  func basicFiring() async {
    let clock = ManualClock()
    let sender = EventSender<Int>()
    let (heard, task, requests) = sampling(sender.event, clock: clock)
    sender.send(1)
    await requests.request(2)
    await clock.sleeper(until: clock.now.advanced(by: .milliseconds(100)))
    clock.advance(by: .milliseconds(100))
    var iterator = heard.makeAsyncIterator()
    #expect(await iterator.next() == 1)
    #expect(await ending(task, heard).isEmpty)
  }

  // Signals: testDispatchQueueing
  @Test("Three values within an interval: the last is heard, once")
  func dispatchQueueing() async {
    let clock = ManualClock()
    let sender = EventSender<Int>()
    let (heard, task, requests) = sampling(sender.event, clock: clock)
    for value in 1...3 { sender.send(value) }
    await requests.request(4)
    await clock.sleeper(until: clock.now.advanced(by: .milliseconds(100)))
    clock.advance(by: .milliseconds(100))
    var iterator = heard.makeAsyncIterator()
    #expect(await iterator.next() == 3)
    #expect(await ending(task, heard).isEmpty)
  }

  // Signals: testConditionalListening
  @Test("Filtered, then sampled: only the value that passes is heard")
  func conditionalListening() async {
    let clock = ManualClock()
    let sender = EventSender<(int: Int, string: String)>()
    let passing = sender.event.filter { $0.int == 2 && $0.string == "test2" }.map {
      "\($0.int) \($0.string)"
    }
    let (heard, task, requests) = sampling(passing, clock: clock)
    for value in [(1, "test"), (1, "test2"), (2, "test2"), (1, "test3")] {
      sender.send((int: value.0, string: value.1))
    }
    await requests.request(2)
    await clock.sleeper(until: clock.now.advanced(by: .milliseconds(100)))
    clock.advance(by: .milliseconds(100))
    var iterator = heard.makeAsyncIterator()
    #expect(await iterator.next() == "2 test2")
    #expect(await ending(task, heard).isEmpty)
  }

  // Signals: testCancellingListeners
  @Test("Ended before the interval ends: nothing is heard")
  func cancellingListeners() async {
    let clock = ManualClock()
    let sender = EventSender<Int>()
    let (heard, task, requests) = sampling(sender.event, clock: clock)
    sender.send(1)
    sender.send(1)
    await requests.request(3)
    task.cancel()
    await task.value
    clock.advance(by: .milliseconds(100))
    #expect(await ending(task, heard).isEmpty)
  }

  // Signals: testListeningNoData
  @Test("Three sends of an event with no value within an interval: heard once")
  func listeningNoData() async {
    let clock = ManualClock()
    let sender = EventSender<Void>()
    let (heard, task, requests) = sampling(sender.event, clock: clock)
    for _ in 1...3 { sender.send() }
    await requests.request(4)
    await clock.sleeper(until: clock.now.advanced(by: .milliseconds(100)))
    clock.advance(by: .milliseconds(100))
    var iterator = heard.makeAsyncIterator()
    #expect(await iterator.next() != nil)
    #expect(await ending(task, heard).isEmpty)
  }
}
