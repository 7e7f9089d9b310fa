// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

@testable import TimeOperators

@Suite("Debounce and throttle through values")
@MainActor
struct TimeOperatorsTests {
  @Test("Debounced: a burst of text is searched once, for its last value, after the pause")
  func debounce() async {
    let clock = ManualClock()
    let text = EventSender<String>()
    let (requests, requested) = AsyncStream.makeStream(of: Int.self)
    let (searches, searching) = AsyncStream.makeStream(of: String.self)
    let model = SearchModel(
      queries: Probed(base: text.event.values, requests: requested),
      pause: .milliseconds(300), clock: clock
    ) { query in
      searching.yield(query)
      return ["\(query).swift"]
    }
    var searched = searches.makeAsyncIterator()

    for prefix in ["s", "sw", "swi"] { text.send(prefix) }
    await requests.request(4)  // all three taken
    await clock.sleeper(until: clock.now.advanced(by: .milliseconds(300)))
    clock.advance(by: .milliseconds(300))
    #expect(await searched.next() == "swi")
    #expect(model.results == ["swi.swift"])

    for prefix in ["swif", "swift"] { text.send(prefix) }
    await requests.request(6)
    await clock.sleeper(until: clock.now.advanced(by: .milliseconds(300)))
    clock.advance(by: .milliseconds(300))
    #expect(await searched.next() == "swift")
    #expect(model.searched == ["swi", "swift"], "one search per pause, none for the keys between")
    // Stopping ends the search task; debounce's own tasks, which hold the
    // subscription, end after it, on their own.
    await model.stop()
  }

  @Test("Debounced: text typed within the pause starts it again, from that text")
  func debounceRestarts() async {
    let clock = ManualClock()
    let text = EventSender<String>()
    let (requests, requested) = AsyncStream.makeStream(of: Int.self)
    let (searches, searching) = AsyncStream.makeStream(of: (query: String, at: Duration).self)
    let model = SearchModel(
      queries: Probed(base: text.event.values, requests: requested),
      pause: .milliseconds(300), clock: clock
    ) { query in
      searching.yield((query, clock.now.offset))
      return []
    }
    var searched = searches.makeAsyncIterator()

    text.send("s")  // at 0 ms: due at 300 ms
    await requests.request(2)
    await clock.sleeper(until: clock.now.advanced(by: .milliseconds(300)))
    clock.advance(by: .milliseconds(200))
    text.send("sw")  // at 200 ms: due at 500 ms
    await requests.request(3)
    clock.advance(by: .milliseconds(200))
    // At 400 ms the first pause has ended, but "sw" is due later: the
    // operator sleeps again, until 500 ms, without searching.
    await clock.sleeper(until: clock.now.advanced(by: .milliseconds(100)))
    clock.advance(by: .milliseconds(100))
    let search = await searched.next()
    #expect(search?.query == "sw", "no search for \"s\", whose pause was cut short")
    #expect(search?.at == .milliseconds(500), "searched once the pause after \"sw\" has passed")
    #expect(model.searched == ["sw"])
    await model.stop()
  }

  @Test("Stopped within the pause: nothing is searched, and the text's subscription ends")
  func debounceStopped() async {
    let clock = ManualClock()
    let text = EventSender<String>()
    let (requests, requested) = AsyncStream.makeStream(of: Int.self)
    let model = SearchModel(
      queries: Probed(base: text.event.values, requests: requested),
      pause: .milliseconds(300), clock: clock
    ) { _ in
      Issue.record("searched after stopping")
      return []
    }
    text.send("s")
    await requests.request(2)
    await model.stop()
    clock.advance(by: .milliseconds(300))
    await requests.end()
    #expect(model.searched.isEmpty)
    #expect(!text.hasObservers, "the stream's subscription ended with the operator's task")
  }

  @Test("Debounced from an event: one value is searched once the pause has passed")
  func debounceAnEvent() async {
    let clock = ManualClock()
    let text = EventSender<String>()
    let (searches, searching) = AsyncStream.makeStream(of: String.self)
    let model = SearchModel(query: text.event, pause: .milliseconds(300), clock: clock) {
      searching.yield($0)
      return []
    }
    text.send("a")
    await clock.sleeper(until: clock.now.advanced(by: .milliseconds(300)))
    clock.advance(by: .milliseconds(300))
    var searched = searches.makeAsyncIterator()
    #expect(await searched.next() == "a")
    await model.stop()
  }

  @Test(
    "Throttled: the first change is saved at once, those within the interval fold into the next")
  func throttle() async {
    let clock = ManualClock()
    let volume = ObservableValue(0.0)
    let (requests, requested) = AsyncStream.makeStream(of: Int.self)
    let (saves, saving) = AsyncStream.makeStream(of: Double.self)
    let saver = VolumeSaver(
      levels: Probed(base: volume.changes.values.map(\.new), requests: requested),
      every: .seconds(1), clock: clock
    ) { saving.yield($0) }
    var saved = saves.makeAsyncIterator()

    volume.value = 0.1
    #expect(await saved.next() == 0.1)
    volume.value = 0.2
    volume.value = 0.3
    await requests.request(4)  // both taken, within the interval
    clock.advance(by: .seconds(1))
    volume.value = 0.4
    #expect(await saved.next() == 0.4, "0.2 and 0.3 folded into the next save, the latest")

    await saver.stop()
    #expect(!volume.changes.hasObservers, "stopping ends the subscription")
  }

  @Test("Throttled: a level held back when saving stops is saved then, as the last")
  func throttleStopped() async {
    let clock = ManualClock()
    let volume = ObservableValue(0.0)
    let (requests, requested) = AsyncStream.makeStream(of: Int.self)
    let (saves, saving) = AsyncStream.makeStream(of: Double.self)
    let saver = VolumeSaver(
      levels: Probed(base: volume.changes.values.map(\.new), requests: requested),
      every: .seconds(1), clock: clock
    ) { saving.yield($0) }

    volume.value = 0.1
    volume.value = 0.2
    volume.value = 0.3
    await requests.request(4)  // 0.1 saved, 0.2 and 0.3 held back
    await saver.stop()
    volume.value = 0.4
    saving.finish()
    var all: [Double] = []
    for await level in saves { all.append(level) }
    #expect(all == [0.1, 0.3], "the end of the levels lets the throttle give up what it holds")
  }

  @Test("Throttled from an observable value: the first change is saved at once")
  func throttleAValue() async {
    let volume = ObservableValue(0.0)
    let (saves, saving) = AsyncStream.makeStream(of: Double.self)
    let saver = VolumeSaver(volume: volume, every: .seconds(1), clock: ManualClock()) {
      saving.yield($0)
    }
    volume.value = 0.5
    var saved = saves.makeAsyncIterator()
    #expect(await saved.next() == 0.5)
    await saver.stop()
  }

  @Test("Throttled on the continuous clock: the first change is saved at once")
  func throttleContinuously() async {
    let volume = ObservableValue(0.0)
    let (saves, saving) = AsyncStream.makeStream(of: Double.self)
    let saver = VolumeSaver(volume: volume, every: .seconds(1)) { saving.yield($0) }
    volume.value = 0.5
    var saved = saves.makeAsyncIterator()
    #expect(await saved.next() == 0.5)
    await saver.stop()
  }
}
