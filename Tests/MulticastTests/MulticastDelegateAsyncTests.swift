// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// An observer protocol with an asynchronous method.
protocol Saving: AnyObject {
  func save() async throws
}

/// An observer whose `save()` suspends, logs, and can act while it is under
/// way.
final class Saver: Saving {
  let name: String
  let log: Log
  var whileSaving: (() async throws -> Void)?

  init(_ name: String, log: Log, whileSaving: (() async throws -> Void)? = nil) {
    self.name = name
    self.log = log
    self.whileSaving = whileSaving
  }

  func save() async throws {
    log.append("\(name) begins")
    await Task.yield()
    try await whileSaving?()
    log.append("\(name) ends")
  }
}

/// A gate that one task waits at until another opens it.
final class Gate {
  private var waiter: CheckedContinuation<Void, Never>?
  private var isOpen = false

  func wait() async {
    guard !isOpen else { return }
    await withCheckedContinuation { waiter = $0 }
  }

  func open() {
    isOpen = true
    waiter?.resume()
    waiter = nil
  }
}

@Suite("Awaiting each observer")
@MainActor
struct MulticastDelegateAsyncTests {
  @Test("Each observer's async method is awaited in registration order", arguments: Path.allCases)
  func order(path: Path) async throws {
    let log = Log()
    let observers = path.make((any Saving).self)
    let savers = ["a", "b", "c"].map { Saver($0, log: log) }
    for saver in savers { observers.addObserver(saver) }
    try await observers.awaitEach { try await $0.save() }
    #expect(
      log.entries == ["a begins", "a ends", "b begins", "b ends", "c begins", "c ends"])
    withExtendedLifetime(savers) {}  // observers are weak: keep them to the end
  }

  @Test("Removed before its turn: not called; added during the broadcast: called by the next")
  func removalRules() async throws {
    let log = Log()
    let observers = MulticastDelegate<any Saving>()
    let c = Saver("c", log: log)
    let late = Saver("late", log: log)
    let a = Saver("a", log: log) {
      observers.removeObserver(c)
      observers.addObserver(late)
    }
    let b = Saver("b", log: log)
    for saver in [a, b, c] { observers.addObserver(saver) }
    try await observers.awaitEach { try await $0.save() }
    #expect(log.entries == ["a begins", "a ends", "b begins", "b ends"])
    log.reset()
    try await observers.awaitEach { try await $0.save() }
    #expect(log.entries.contains("late begins"))
    withExtendedLifetime((a, b, c, late)) {}
  }

  @Test("An observer waiting for its turn is not kept alive: released, it is not called")
  func weakUntilItsTurn() async throws {
    let log = Log()
    let observers = MulticastDelegate<any Saving>()
    let (entered, gate) = (Gate(), Gate())
    let first = Saver("first", log: log) {
      entered.open()
      await gate.wait()
    }
    var second: Saver? = Saver("second", log: log)
    weak let watched = second
    observers.addObserver(first)
    observers.addObserver(second!)
    let broadcast = Task { try await observers.awaitEach { try await $0.save() } }
    // While the first call waits at the gate, drop the only reference to the
    // second observer: the broadcast must not be holding it.
    await entered.wait()
    second = nil
    #expect(watched == nil, "the broadcast kept an observer that was waiting for its turn")
    gate.open()
    try await broadcast.value
    #expect(log.entries == ["first begins", "first ends"])
    withExtendedLifetime(first) {}
  }

  @Test("Cancelling the task stops the broadcast before the next observer, with CancellationError")
  func cancellation() async {
    let log = Log()
    let observers = MulticastDelegate<any Saving>()
    let (entered, gate) = (Gate(), Gate())
    let first = Saver("first", log: log) {
      entered.open()
      await gate.wait()
    }
    let second = Saver("second", log: log)
    observers.addObserver(first)
    observers.addObserver(second)
    let broadcast = Task { try await observers.awaitEach { try await $0.save() } }
    await entered.wait()
    broadcast.cancel()
    gate.open()
    await #expect(throws: CancellationError.self) { try await broadcast.value }
    #expect(log.entries == ["first begins", "first ends"])
    withExtendedLifetime((first, second)) {}
  }

  @Test("The first error ends the broadcast and is rethrown")
  func errors() async {
    let log = Log()
    let observers = MulticastDelegate<any Saving>()
    let failing = Saver("failing", log: log) { throw Refused() }
    let next = Saver("next", log: log)
    observers.addObserver(failing)
    observers.addObserver(next)
    await #expect(throws: Refused.self) { try await observers.awaitEach { try await $0.save() } }
    #expect(log.entries == ["failing begins"])
    withExtendedLifetime((failing, next)) {}
  }
}
