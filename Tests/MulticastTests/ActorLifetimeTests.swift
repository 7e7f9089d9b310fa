// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Testing

@testable import Multicast

/// The subjects an actor subscribes to in these tests.
struct Subjects: Sendable {
  let sender = EventSender<Int>()
  let value = ObservableValue(0)
}

/// Something a handler captures, so that a test can tell when the handler
/// is released.
final class Token: Sendable {}

/// An object a subscription is bound to; it is no actor.
final class Bound: Sendable {}

/// Every way to subscribe from an actor.
enum SubscribeForm: CaseIterable, CustomTestStringConvertible, Sendable {
  case closure, forever, target, once, value, derived

  var testDescription: String {
    switch self {
    case .closure: "observe"
    case .forever: "observeForever"
    case .target: "observe(target)"
    case .once: "observeOnce"
    case .value: "observeValue"
    case .derived: "map, then observe"
    }
  }
}

/// An actor that subscribes with handlers that do not capture it, so that
/// its subscriptions may outlive it.
actor Host {
  let name: String

  init(_ name: String) { self.name = name }

  /// Subscribes in `form` from this actor, with a handler that captures
  /// `token`.
  ///
  /// The handler records the actor's name and each value. Returns what
  /// keeps the subscription.
  func subscribe(
    _ form: SubscribeForm, to subjects: Subjects, log: Locked<[String]>, capturing token: Token
  ) -> [any AnyObject & Sendable] {
    let name = name
    let record: @Sendable (Int) -> Void = { value in
      withExtendedLifetime(token) { log.withLock { $0.append("\(name) \(value)") } }
    }
    switch form {
    case .closure:
      return [subjects.sender.event.observe { record($0) }]
    case .forever:
      subjects.sender.event.observeForever { record($0) }
      return []
    case .target:
      let target = Bound()
      subjects.sender.event.observe(target) { _, value in record(value) }
      return [target]
    case .once:
      return [subjects.sender.event.observeOnce { record($0) }]
    case .value:
      return [subjects.value.observeValue { record($0) }]
    case .derived:
      return [subjects.sender.event.map { $0 }.observe { record($0) }]
    }
  }

  /// Sends `value` on both subjects from this actor.
  func send(_ value: Int, to subjects: Subjects) {
    subjects.sender.send(value)
    subjects.value.set(value)
  }

  /// Returns once what was queued for this actor has arrived.
  func flush() async {
    await waitForDeliveries()
  }
}

@Suite("Actor identity")
struct ActorIdentityTests {
  /// Releases `dead`, then makes actors until one has its address; returns
  /// it, or `nil` if the allocator never reused the address.
  func hostAtDeadAddress(_ dead: inout Host?) -> Host? {
    let address = ObjectIdentifier(dead!)
    dead = nil
    var others: [Host] = []
    for _ in 0..<10_000 {
      let candidate = Host("live")
      if ObjectIdentifier(candidate) == address { return candidate }
      others.append(candidate)
    }
    return nil
  }

  @Test(
    "A dead actor's subscriptions never run on the actor born at its address, and end",
    arguments: SubscribeForm.allCases)
  func deadActorsSubscriptionsEnd(form: SubscribeForm) async throws {
    var reused = 0
    for _ in 0..<40 where reused < 20 {
      let subjects = Subjects()
      let log = Locked<[String]>([])
      var dead: Host? = Host("dead")
      var token: Token? = Token()
      weak let deadToken = token
      let kept = await dead!.subscribe(form, to: subjects, log: log, capturing: token!)
      token = nil
      weak let deadHost = dead
      // Rounds where the allocator gave the address to something else are
      // skipped; most are not.
      guard let live = hostAtDeadAddress(&dead) else { continue }
      reused += 1
      try #require(deadHost == nil, "the dead actor is still alive")
      log.withLock { $0.removeAll() }

      // The actor at the dead one's address sends: the dead one's handlers
      // are not called, and are released.
      await live.send(1, to: subjects)
      #expect(log.withLock { $0 } == [])
      #expect(deadToken == nil, "a dead actor's handler is still held")

      // It subscribes, then sends: it alone hears.
      let liveKept = await live.subscribe(form, to: subjects, log: log, capturing: Token())
      await live.send(2, to: subjects)
      // From a task on no actor, the value is queued for the live actor.
      await Task.detached { subjects.sender.send(3) }.value
      await Task.detached { subjects.value.set(3) }.value
      await live.flush()
      let heard = log.withLock { $0 }
      #expect(!heard.contains { $0.hasPrefix("dead") }, "\(heard)")
      switch form {
      case .once: #expect(heard == ["live 2"])
      case .value: #expect(heard == ["live 1", "live 2", "live 3"])
      default: #expect(heard == ["live 2", "live 3"])
      }
      withExtendedLifetime((kept, liveKept, live)) {}
    }
    #expect(reused >= 10, "the allocator reused a dead actor's address in \(reused) of 40 rounds")
  }

  @Test(
    "An actor born at a dead one's address that subscribes before anything is sent gets a destination of its own, from an event that has the dead one's and from one that does not"
  )
  func newActorSubscribesBeforeAnySend() async throws {
    var reused = 0
    for _ in 0..<40 where reused < 10 {
      let subjects = Subjects()
      let log = Locked<[String]>([])
      var dead: Host? = Host("dead")
      // Both subjects keep the dead actor's destination in their lists.
      let kept = await dead!.subscribe(.closure, to: subjects, log: log, capturing: Token())
      let keptValue = await dead!.subscribe(.value, to: subjects, log: log, capturing: Token())
      guard let live = hostAtDeadAddress(&dead) else { continue }
      reused += 1
      log.withLock { $0.removeAll() }
      // A subject with no destination for the address asks the registry,
      // which still has the dead one's; then a subject that lists it.
      let other = Subjects()
      let keptOther = await live.subscribe(.closure, to: other, log: log, capturing: Token())
      let keptLive = await live.subscribe(.closure, to: subjects, log: log, capturing: Token())
      await live.send(1, to: other)
      await live.send(2, to: subjects)
      await live.flush()
      #expect(log.withLock { $0 } == ["live 1", "live 2"])
      withExtendedLifetime((kept, keptValue, keptOther, keptLive, live)) {}
    }
    #expect(reused >= 5, "the allocator reused a dead actor's address in \(reused) of 40 rounds")
  }
}

/// An actor target whose one owner is a box, which it empties when it hears
/// its first value, after sending 99 more that then wait for it: its owner
/// lets it go while values wait for it.
actor Releasing {
  let owner: Locked<Releasing?>
  let heard: Locked<[String]>
  let died: AsyncStream<Void>.Continuation
  private var isReleased = false

  init(owner: Locked<Releasing?>, heard: Locked<[String]>, died: AsyncStream<Void>.Continuation) {
    (self.owner, self.heard, self.died) = (owner, heard, died)
  }

  deinit { died.yield() }

  func listen(to subjects: Subjects, value: Bool) {
    if value {
      subjects.value.observe(actor: self) { target, _, new in target.hear(new, subjects, value) }
    } else {
      subjects.sender.event.observe(actor: self) { target, sent in
        target.hear(sent, subjects, value)
      }
    }
  }

  /// Records `sent`; the first time, sends 2...100, which wait behind the
  /// delivery in progress, then lets the owner go.
  private func hear(_ sent: Int, _ subjects: Subjects, _ value: Bool) {
    guard !isReleased else {
      heard.withLock { $0.append("after release \(sent)") }
      return
    }
    heard.withLock { $0.append("first \(sent)") }
    for next in 2...100 {
      if value { subjects.value.set(next) } else { subjects.sender.send(next) }
    }
    isReleased = true
    owner.withLock { $0 = nil }
  }
}

// The time limits of the tests that wait for an actor's death only turn a
// hang into a failure. Every test runs at once, so under ThreadSanitizer on
// two cores a test can wait for most of the run (300 s of an 8-minute run,
// once): the limit is above the whole run's length.
@Suite("Actor targets")
struct ActorTargetTests {
  @Test(
    "An actor target released while values wait for it is not called again, and dies",
    .timeLimit(.minutes(15)), arguments: [false, true])
  func releasedTargetIsNotCalled(value: Bool) async {
    for _ in 0..<20 {
      let subjects = Subjects()
      let heard = Locked<[String]>([])
      let owner = Locked<Releasing?>(nil)
      let (died, dying) = AsyncStream<Void>.makeStream()
      owner.withLock { $0 = Releasing(owner: owner, heard: heard, died: dying) }
      await owner.withLock { $0 }!.listen(to: subjects, value: value)
      // Sent from no actor, the first value is queued; the actor hears it
      // in a drain, queues 99 more behind it, and lets its owner go.
      if value { subjects.value.set(1) } else { subjects.sender.send(1) }
      var deaths = died.makeAsyncIterator()
      guard await deaths.next() != nil else { return }  // past the time limit
      // A handler runs on the actor, so none runs once it is gone: what it
      // heard is final. (Waiting for every actor's deliveries here would
      // wait for other tests' actors too.)
      #expect(heard.withLock { $0 } == ["first 1"])
    }
  }

  @Test(
    "A drain whose actor loses one of its owners while others remain stops, and the next drain, finding the actor alive, delivers the rest in order",
    .timeLimit(.minutes(15)))
  func drainGoesOnWhileOwnersRemain() async {
    let sender = EventSender<Int>()
    let heard = Locked<[Int]>([])
    let owners = Locked<[SharedListener]>([])
    let listener = SharedListener(heard: heard, owners: owners)
    owners.withLock { $0 = [listener, listener] }
    await listener.listen(to: sender)
    // Sent from no actor, the values wait for a drain on the actor; the
    // first lets one owner go, so the drain's count of the actor falls.
    await Task.detached { for value in 1...50 { sender.send(value) } }.value
    await Task.detached { await waitForDeliveries() }.value
    #expect(heard.withLock { $0 } == Array(1...50))
    #expect(owners.withLock { $0.count } == 1)
    withExtendedLifetime(listener) {}
  }
}

/// An actor with owners besides its creator: the first value it hears lets
/// one of them go.
actor SharedListener {
  let heard: Locked<[Int]>
  let owners: Locked<[SharedListener]>

  init(heard: Locked<[Int]>, owners: Locked<[SharedListener]>) {
    (self.heard, self.owners) = (heard, owners)
  }

  func listen(to sender: EventSender<Int>) {
    sender.event.observe(actor: self) { listener, value in listener.hear(value) }
  }

  private func hear(_ value: Int) {
    heard.withLock { $0.append(value) }
    if value == 1 { _ = owners.withLock { $0.removeLast() } }
  }
}
