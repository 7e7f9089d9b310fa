// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

// A loop over `values` that never ends would hang its test: each test runs
// in a child process that a watchdog ends. Every wait is a join (a loop's
// task); none sleeps.

@Suite("A values stream ends when nothing can send to it")
struct ValuesEndTests {
  @Test("A for-await loop ends once the sender is released", arguments: StreamPlace.allCases)
  func loopEndsWithTheSender(place: StreamPlace) async {
    await #expect(processExitsWith: .success) { [place] in
      let watchdog = Watchdog(seconds: 60, "a loop over an event's values, \(place)")
      await ValuesEnd.loopEndsWithTheSender(place)
      watchdog.stop()
    }
  }

  @Test(
    "A for-await loop over an observable value's changes ends once the value is released",
    arguments: StreamPlace.allCases)
  func loopEndsWithTheValue(place: StreamPlace) async {
    await #expect(processExitsWith: .success) { [place] in
      let watchdog = Watchdog(seconds: 60, "a loop over a value's changes, \(place)")
      await ValuesEnd.loopEndsWithTheValue(place)
      watchdog.stop()
    }
  }

  @Test(
    "A for-await loop over a derived event ends once its source's sender is released",
    arguments: StreamPlace.allCases)
  func loopEndsWithTheSourceOfADerivedEvent(place: StreamPlace) async {
    await #expect(processExitsWith: .success) { [place] in
      let watchdog = Watchdog(seconds: 60, "a loop over a mapped event's values, \(place)")
      await ValuesEnd.loopEndsWithTheSourceOfADerivedEvent(place)
      watchdog.stop()
    }
  }

  @Test(
    "What the loop captured, a view model, is released once the loop ends",
    arguments: StreamPlace.allCases)
  func capturedReaderIsReleased(place: StreamPlace) async {
    await #expect(processExitsWith: .success) { [place] in
      let watchdog = Watchdog(seconds: 60, "a loop that captures its reader, \(place)")
      await ValuesEnd.capturedReaderIsReleased(place)
      watchdog.stop()
    }
  }

  @Test(
    "Every value sent before the release is read, in order, before the loop ends",
    arguments: StreamPlace.allCases)
  func nothingSentBeforeTheReleaseIsLost(place: StreamPlace) async {
    await #expect(processExitsWith: .success) { [place] in
      let watchdog = Watchdog(seconds: 60, "a loop over many values, \(place)")
      await ValuesEnd.nothingSentBeforeTheReleaseIsLost(place)
      watchdog.stop()
    }
  }

  @Test(
    "Values made after the sender, the value or the source is gone end at once",
    arguments: StreamPlace.allCases)
  func valuesMadeAfterTheReleaseEndAtOnce(place: StreamPlace) async {
    await #expect(processExitsWith: .success) { [place] in
      let watchdog = Watchdog(seconds: 60, "loops begun after the release, \(place)")
      await ValuesEnd.valuesMadeAfterTheReleaseEndAtOnce(place)
      watchdog.stop()
    }
  }

  @Test(
    "Cancelling the loop's task still ends it, the sender alive", arguments: StreamPlace.allCases)
  func cancellationStillEndsTheLoop(place: StreamPlace) async {
    await #expect(processExitsWith: .success) { [place] in
      let watchdog = Watchdog(seconds: 60, "a cancelled loop, \(place)")
      await ValuesEnd.cancellationStillEndsTheLoop(place)
      watchdog.stop()
    }
  }

  @Test("Values sent from many tasks at once all arrive, each task's in order, before the end")
  func concurrentSendsBeforeTheRelease() async {
    await #expect(processExitsWith: .success) {
      let watchdog = Watchdog(seconds: 120, "a loop over values sent from many tasks")
      await ValuesEnd.concurrentSendsBeforeTheRelease()
      watchdog.stop()
    }
  }

  @Test("A chain of filter, compactMap and map ends with its first event's sender")
  func chainEndsWithItsSource() async {
    await #expect(processExitsWith: .success) {
      let watchdog = Watchdog(seconds: 60, "a loop over a chain of derived events")
      await ValuesEnd.chainEndsWithItsSource()
      watchdog.stop()
    }
  }

  @Test("Values made after a replaying sender is gone hear its latest value, then end")
  func replayedValueThenTheEnd() async {
    await #expect(processExitsWith: .success) {
      let watchdog = Watchdog(seconds: 60, "a loop over a replaying sender's values")
      await ValuesEnd.replayedValueThenTheEnd()
      watchdog.stop()
    }
  }
}

/// Where the owner of the sender and the reader of its values run.
enum StreamPlace: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
  case mainActor, plainClass, actor

  var description: String { rawValue }

  func makeOwner() async -> any StreamOwner {
    switch self {
    case .mainActor: MainActorStreamOwner()
    case .plainClass: PlainStreamOwner()
    case .actor: ActorStreamOwner()
    }
  }

  func makeReader() async -> any StreamReader {
    switch self {
    case .mainActor: MainActorStreamReader()
    case .plainClass: PlainStreamReader()
    case .actor: ActorStreamReader()
    }
  }
}

/// What owns an event and an observable value, and alone sends: a model.
protocol StreamOwner: AnyObject, Sendable {
  var ticks: Event<Int> { get }
  var level: ObservableValue<Int> { get }
  /// Sends each value on `ticks` and assigns it to `level`, where the owner
  /// runs.
  func send(_ values: ClosedRange<Int>) async
}

@MainActor
final class MainActorStreamOwner: StreamOwner {
  private nonisolated let tick = EventSender<Int>()
  nonisolated let level = ObservableValue(0)
  nonisolated var ticks: Event<Int> { tick.event }

  func send(_ values: ClosedRange<Int>) {
    for value in values {
      tick.send(value)
      level.set(value)
    }
  }
}

final class PlainStreamOwner: StreamOwner {
  private let tick = EventSender<Int>()
  let level = ObservableValue(0)
  var ticks: Event<Int> { tick.event }

  func send(_ values: ClosedRange<Int>) {
    for value in values {
      tick.send(value)
      level.value = value
    }
  }
}

actor ActorStreamOwner: StreamOwner {
  private let tick = EventSender<Int>()
  let level = ObservableValue(0)
  nonisolated var ticks: Event<Int> { tick.event }

  func send(_ values: ClosedRange<Int>) {
    for value in values {
      tick.send(value)
      level.set(value)
    }
  }
}

/// What reads a stream in a task of its own that captures it, keeping what
/// the stream came from, as a view model does.
protocol StreamReader: AnyObject, Sendable {
  /// Starts the loop over `values`, and keeps `held` (the event the stream
  /// was made from) for as long as the reader lives.
  func follow<Element: Sendable>(_ values: AsyncStream<Element>, holding held: any Sendable) async
  /// The task that runs the loop.
  var loop: Task<Void, Never>? { get async }
  /// What the loop read, each value described.
  var heard: [String] { get async }
}

@MainActor
final class MainActorStreamReader: StreamReader {
  private(set) var heard: [String] = []
  private(set) var loop: Task<Void, Never>?
  private var held: (any Sendable)?

  func follow<Element: Sendable>(_ values: AsyncStream<Element>, holding held: any Sendable) {
    self.held = held
    loop = Task {
      for await value in values { self.heard.append("\(value)") }
    }
  }
}

final class PlainStreamReader: StreamReader {
  private let state = Locked<(heard: [String], loop: Task<Void, Never>?, held: (any Sendable)?)>(
    ([], nil, nil))

  var heard: [String] { state.withLock { $0.heard } }
  var loop: Task<Void, Never>? { state.withLock { $0.loop } }

  func follow<Element: Sendable>(_ values: AsyncStream<Element>, holding held: any Sendable) {
    let loop = Task.detached {
      for await value in values { self.record("\(value)") }
    }
    state.withLock {
      $0.loop = loop
      $0.held = held
    }
  }

  private func record(_ value: String) { state.withLock { $0.heard.append(value) } }
}

actor ActorStreamReader: StreamReader {
  private(set) var heard: [String] = []
  private(set) var loop: Task<Void, Never>?
  private var held: (any Sendable)?

  func follow<Element: Sendable>(_ values: AsyncStream<Element>, holding held: any Sendable) {
    self.held = held
    loop = Task {
      for await value in values { self.heard.append("\(value)") }
    }
  }
}

/// The scenarios, each run in a child process.
enum ValuesEnd {
  static func loopEndsWithTheSender(_ place: StreamPlace) async {
    var owner: (any StreamOwner)? = await place.makeOwner()
    let reader = await place.makeReader()
    let ticks = owner!.ticks
    await reader.follow(ticks.values, holding: ticks)
    await owner!.send(1...3)
    owner = nil
    await reader.loop!.value
    #expect(await reader.heard == ["1", "2", "3"])
    #expect(!ticks.hasObservers)
  }

  static func loopEndsWithTheValue(_ place: StreamPlace) async {
    var owner: (any StreamOwner)? = await place.makeOwner()
    let reader = await place.makeReader()
    let changes = owner!.level.changes
    await reader.follow(changes.values, holding: changes)
    await owner!.send(1...2)
    owner = nil
    await reader.loop!.value
    #expect(await reader.heard == ["(old: 0, new: 1)", "(old: 1, new: 2)"])
  }

  static func loopEndsWithTheSourceOfADerivedEvent(_ place: StreamPlace) async {
    var owner: (any StreamOwner)? = await place.makeOwner()
    let reader = await place.makeReader()
    let tens = owner!.ticks.map { $0 * 10 }
    await reader.follow(tens.values, holding: tens)
    await owner!.send(1...3)
    owner = nil
    await reader.loop!.value
    #expect(await reader.heard == ["10", "20", "30"])
  }

  static func capturedReaderIsReleased(_ place: StreamPlace) async {
    var owner: (any StreamOwner)? = await place.makeOwner()
    var reader: (any StreamReader)? = await place.makeReader()
    weak let released = reader
    await reader!.follow(owner!.ticks.values, holding: owner!.ticks)
    let loop = await reader!.loop!
    reader = nil
    #expect(released != nil, "the loop keeps its reader while it waits")
    await owner!.send(1...1)
    owner = nil
    await loop.value
    #expect(released == nil, "the loop ended, releasing its reader")
  }

  static func nothingSentBeforeTheReleaseIsLost(_ place: StreamPlace) async {
    var owner: (any StreamOwner)? = await place.makeOwner()
    let reader = await place.makeReader()
    let other = await place.makeReader()
    let ticks = owner!.ticks
    let tens = ticks.map { $0 * 10 }
    await reader.follow(ticks.values, holding: ticks)
    await other.follow(tens.values, holding: tens)
    await owner!.send(1...2_000)
    owner = nil
    await reader.loop!.value
    await other.loop!.value
    #expect(await reader.heard == (1...2_000).map { "\($0)" })
    #expect(await other.heard == (1...2_000).map { "\($0 * 10)" })
  }

  static func valuesMadeAfterTheReleaseEndAtOnce(_ place: StreamPlace) async {
    var owner: (any StreamOwner)? = await place.makeOwner()
    let ticks = owner!.ticks
    let tens = ticks.map { $0 * 10 }
    let changes = owner!.level.changes
    await owner!.send(1...1)
    owner = nil
    for made in [ticks.values, tens.values] {
      let reader = await place.makeReader()
      await reader.follow(made, holding: ticks)
      await reader.loop!.value
      #expect(await reader.heard == [])
    }
    let reader = await place.makeReader()
    await reader.follow(changes.values, holding: changes)
    await reader.loop!.value
    #expect(await reader.heard == [])
  }

  static func cancellationStillEndsTheLoop(_ place: StreamPlace) async {
    let owner = await place.makeOwner()
    let reader = await place.makeReader()
    await reader.follow(owner.ticks.values, holding: owner.ticks)
    #expect(owner.ticks.hasObservers)
    let loop = await reader.loop!
    loop.cancel()
    await loop.value
    #expect(!owner.ticks.hasObservers)
    await owner.send(1...1)
    withExtendedLifetime(owner) {}
  }

  static func concurrentSendsBeforeTheRelease() async {
    let tasks = 4
    let each = 2_000
    var sender: EventSender<Int>? = EventSender<Int>()
    let event = sender!.event
    let reader = PlainStreamReader()
    reader.follow(event.values, holding: event)
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<tasks {
        group.addTask { [sender] in
          for value in 0..<each { sender!.send(task * each + value) }
        }
      }
    }
    sender = nil
    await reader.loop!.value
    let heard = reader.heard.map { Int($0)! }
    #expect(heard.count == tasks * each)
    for task in 0..<tasks {
      let range = task * each..<(task + 1) * each
      #expect(heard.filter(range.contains) == Array(range), "task \(task)'s values in order")
    }
  }

  static func chainEndsWithItsSource() async {
    var sender: EventSender<Int>? = EventSender<Int>()
    let chain = sender!.event
      .filter { $0 % 2 == 0 }
      .compactMap { $0 % 4 == 0 ? nil : $0 }
      .map { "even \($0)" }
    let reader = PlainStreamReader()
    reader.follow(chain.values, holding: chain)
    for value in 1...8 { sender!.send(value) }
    sender = nil
    await reader.loop!.value
    #expect(reader.heard == ["even 2", "even 6"])
  }

  static func replayedValueThenTheEnd() async {
    var sender: EventSender<Int>? = EventSender<Int>(replaysLatest: true)
    sender!.send(7)
    let event = sender!.event
    sender = nil
    let reader = PlainStreamReader()
    reader.follow(event.values, holding: event)
    await reader.loop!.value
    #expect(reader.heard == ["7"])
  }
}
