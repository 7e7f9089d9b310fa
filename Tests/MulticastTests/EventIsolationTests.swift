// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Testing

@testable import Multicast

/// What main-actor subscribers heard; main-actor state, as a view model's.
@MainActor
final class MainLog {
  var values: [Int] = []
  var entries: [String] = []
  var changes: [Change] = []
}

/// One change of an observable value, as an observer heard it.
struct Change: Equatable, Sendable, CustomStringConvertible {
  var old: Int
  var new: Int
  var description: String { "\(old)->\(new)" }
}

/// A main-actor object that hears an event through one of its methods.
@MainActor
final class MainListener {
  let name: String
  let log: MainLog

  init(_ name: String, log: MainLog) {
    (self.name, self.log) = (name, log)
  }

  func hear(_ value: Int) {
    MainActor.preconditionIsolated("a main-actor subscriber was called off the main actor")
    log.entries.append("\(name) \(value)")
  }
}

/// An actor that subscribes with closures touching its own state.
actor EventTally {
  private(set) var values: [Int] = []
  private var subscription: EventSubscription?

  func subscribe(to event: Event<Int>) {
    subscription = event.observe { value in
      self.preconditionIsolated("an actor's subscriber was called off the actor")
      self.values.append(value)
    }
  }

  /// Sends `value` from this actor, which first delivers what is queued for
  /// it; returns everything heard.
  func send(_ value: Int, with sender: EventSender<Int>) -> [Int] {
    sender.send(value)
    return values
  }
}

/// An actor that owns an observable value and changes it.
actor Meter {
  nonisolated let level = ObservableValue(0)

  func ramp(to top: Int) {
    for value in 1...top { level.set(value) }
  }
}

/// An actor that subscribes from its own isolation and keeps its
/// subscription: the event must not keep it alive in return.
actor Listening {
  private var subscription: EventSubscription?
  private(set) var heard = 0

  /// Subscribes with a closure that captures the actor.
  func listenCapturing(_ event: Event<Int>) {
    subscription = event.observe { _ in self.heard += 1 }
  }

  func stopListening() {
    subscription?.cancel()
  }

  func listen(to event: Event<Int>) {
    subscription = event.observe(actor: self) { listening, _ in
      listening.preconditionIsolated("an actor's handler was called off the actor")
      listening.heard += 1
    }
  }
}

/// An actor that makes an event's sender on its own isolation, where the
/// sender's notices run: the sender must not keep it alive in return.
actor Ticking {
  private var tick: EventSender<Int>?
  func start() {
    tick = EventSender(onFirstObserver: { [weak self] in _ = self })
  }
}

/// An actor that observes a value as a weak target, touching its own state.
actor Gauge {
  private(set) var changes: [Change] = []

  func watch(_ level: ObservableValue<Int>) {
    level.observe(actor: self) { gauge, old, new in
      gauge.preconditionIsolated("an actor's observer was called off the actor")
      gauge.changes.append(Change(old: old, new: new))
    }
  }

  /// Sets `level` on this actor, which first delivers what waits for it;
  /// returns every change heard.
  func set(_ level: ObservableValue<Int>, to value: Int) -> [Change] {
    level.set(value)
    return changes
  }
}

/// A gate that blocks the thread that waits at it until another thread
/// opens it: what keeps an actor's executor busy in a test.
final class BlockingGate: Sendable {
  private let condition = NSCondition()
  private let isOpen = Locked(false)
  private let entered: AsyncStream<Void>.Continuation
  private let entries: AsyncStream<Void>

  init() {
    (entries, entered) = AsyncStream<Void>.makeStream()
  }

  /// Blocks until ``open()``.
  func wait() {
    entered.yield()
    condition.lock()
    while !isOpen.withLock({ $0 }) { condition.wait() }
    condition.unlock()
  }

  /// Returns once a thread waits at the gate, blocking no thread meanwhile;
  /// one task at most may call it.
  func waiter() async {
    var iterator = entries.makeAsyncIterator()
    _ = await iterator.next()
  }

  func open() {
    condition.lock()
    isOpen.withLock { $0 = true }
    condition.broadcast()
    condition.unlock()
  }
}

/// A serial executor that runs its jobs on a thread of its own, outside the
/// pool that runs tasks, and that a test can keep busy with no job of any
/// actor's: no task waits for a pool thread meanwhile (on two cores, a
/// blocked pool thread is half of the pool), and nothing but the test holds
/// the actors it serves.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class DedicatedThreadExecutor: SerialExecutor, @unchecked Sendable {
  // @unchecked Sendable: `work` is read and written only with `condition`
  // locked.
  private let condition = NSCondition()
  private var work: [Work] = []

  private enum Work {
    case job(UnownedJob)
    case block(@Sendable () -> Void)
  }

  /// The executor of every actor in these tests that a test keeps busy; its
  /// thread lives as long as the test process.
  static let shared: DedicatedThreadExecutor = {
    let executor = DedicatedThreadExecutor()
    Thread { executor.run() }.start()
    return executor
  }()

  func enqueue(_ job: consuming ExecutorJob) {
    add(.job(UnownedJob(job)))
  }

  /// Keeps the executor busy, after the jobs already enqueued, until `gate`
  /// opens.
  func hold(until gate: BlockingGate) {
    add(.block { gate.wait() })
  }

  private func add(_ item: Work) {
    condition.lock()
    work.append(item)
    condition.signal()
    condition.unlock()
  }

  private func run() {
    while true {
      condition.lock()
      while work.isEmpty { condition.wait() }
      let item = work.removeFirst()
      condition.unlock()
      switch item {
      case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
      case .block(let body): body()
      }
    }
  }
}

/// An actor target that records what it hears, and can be kept busy: it runs
/// on a thread of its own.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
actor Recorder {
  let heard: Locked<[Int]>
  let died: AsyncStream<Void>.Continuation

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    DedicatedThreadExecutor.shared.asUnownedSerialExecutor()
  }

  init(heard: Locked<[Int]>, died: AsyncStream<Void>.Continuation) {
    (self.heard, self.died) = (heard, died)
  }

  deinit { died.yield() }

  func listen(to event: Event<Int>) {
    event.observe(actor: self) { recorder, value in
      recorder.heard.withLock { $0.append(value) }
    }
  }
}

/// Runs `body` on a new thread and blocks until it returns: a join, for
/// tests that must keep their actor busy while another thread sends.
func runOnThreadAndWait(_ body: @escaping @Sendable () -> Void) {
  let finished = NSCondition()
  let isDone = Locked(false)
  let thread = Thread {
    body()
    finished.lock()
    isDone.withLock { $0 = true }
    finished.signal()
    finished.unlock()
  }
  finished.lock()
  thread.start()
  while !isDone.withLock({ $0 }) { finished.wait() }
  finished.unlock()
}

@Suite("Events and observable values across isolation")
struct EventIsolationTests {
  @Test("A main-actor subscriber hears a detached task's sends on the main actor, in order")
  @MainActor
  func detachedSenderToMainActor() async {
    let sender = EventSender<Int>()
    let log = MainLog()
    let subscription = sender.event.observe { value in
      MainActor.preconditionIsolated("a main-actor subscriber was called off the main actor")
      log.values.append(value)
    }
    await Task.detached {
      for value in 0..<2_000 { sender.send(value) }
    }.value
    // A send on the main actor delivers what is queued for it first.
    sender.send(2_000)
    #expect(log.values == Array(0...2_000))
    withExtendedLifetime(subscription) {}
  }

  @Test("A send on the subscriber's own actor calls it before it returns")
  @MainActor
  func sameIsolationIsSynchronous() {
    let sender = EventSender<Int>()
    let log = MainLog()
    let subscription = sender.event.observe { log.values.append($0) }
    sender.send(1)
    #expect(log.values == [1])
    sender.send(2)
    #expect(log.values == [1, 2])
    withExtendedLifetime(subscription) {}
  }

  @Test("A send on a custom global actor calls that actor's subscribers before it returns")
  func customGlobalActorIsSynchronous() async {
    #expect(await Self.sendOnIndexer() == [1, 2])
  }

  @Indexer
  static func sendOnIndexer() -> [Int] {
    let sender = EventSender<Int>()
    var heard: [Int] = []
    let subscription = sender.event.observe { heard.append($0) }
    sender.send(1)
    sender.send(2)
    withExtendedLifetime(subscription) {}
    return heard
  }

  @Test("An actor's closure subscription runs on that actor, hearing every send in order")
  @MainActor
  func actorInstanceSubscriber() async {
    let sender = EventSender<Int>()
    let tally = EventTally()
    await tally.subscribe(to: sender.event)
    for value in 0..<500 { sender.send(value) }
    await Task.detached {
      for value in 500..<1_000 { sender.send(value) }
    }.value
    #expect(await tally.send(1_000, with: sender) == Array(0...1_000))
  }

  @Test("A target released while values wait for it is not called, nor kept alive")
  @MainActor
  func targetReleasedWhileQueued() {
    let sender = EventSender<Int>()
    let log = MainLog()
    let kept = MainListener("kept", log: log)
    var dropped: MainListener? = MainListener("dropped", log: log)
    sender.event.observe(kept, MainListener.hear)
    sender.event.observe(dropped!) { listener, value in listener.hear(value) }
    weak let weakDropped = dropped
    // The main actor stays busy, so the values wait for it.
    runOnThreadAndWait {
      for value in 0..<3 { sender.send(value) }
    }
    #expect(log.entries.isEmpty)
    dropped = nil
    #expect(weakDropped == nil, "a queued value kept its target alive")
    sender.send(3)
    #expect(log.entries == ["kept 0", "kept 1", "kept 2", "kept 3"])
  }

  @Test(
    "An actor target released while its executor is busy hears none of the values on their way to it, and is released",
    // The drain starts on the task pool, which other suites can hold for
    // minutes under ThreadSanitizer on two cores (over five, once).
    .timeLimit(.minutes(15))
  )
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  func actorTargetReleasedWhileBusy() async {
    let sender = EventSender<Int>()
    let heard = Locked<[Int]>([])
    let (died, dying) = AsyncStream<Void>.makeStream()
    var recorder: Recorder? = Recorder(heard: heard, died: dying)
    await recorder?.listen(to: sender.event)
    // The actor's executor is kept busy by no job of the actor's, so that
    // nothing but `recorder` holds it.
    let gate = BlockingGate()
    DedicatedThreadExecutor.shared.hold(until: gate)
    await gate.waiter()
    runOnThreadAndWait {
      for value in 0..<100 { sender.send(value) }
    }
    recorder = nil
    gate.open()
    // The drain on its way to the actor holds it until it runs there, and
    // then finds that no one else does: released means not called again.
    // Once the actor has died, no handler can run on it.
    var deaths = died.makeAsyncIterator()
    guard await deaths.next() != nil else { return }  // past the time limit
    #expect(heard.withLock { $0 } == [])
  }

  @Test(
    "A send and the owner's notice queued after it for the same actor arrive in that order, the send skipping the subscription cancelled before its turn"
  )
  @MainActor
  func noticeQueuedBehindASend() async {
    let log = MainLog()
    let sender = EventSender<Int>(
      onFirstObserver: { log.entries.append("first") },
      onLastObserverGone: { log.entries.append("last") })
    let subscription = sender.event.observe { log.entries.append("heard \($0)") }
    #expect(log.entries == ["first"])
    // The main actor is busy here: both wait for it, in one queue.
    runOnThreadAndWait {
      sender.send(1)
      subscription.cancel()
    }
    #expect(log.entries == ["first"])
    await waitForDeliveries()
    #expect(log.entries == ["first", "last"])
  }

  @Test("A subscription cancelled or released on another task hears nothing more")
  @MainActor
  func cancelledElsewhere() async {
    let sender = EventSender<Int>()
    let log = MainLog()
    let cancelled = sender.event.observe { log.entries.append("cancelled \($0)") }
    var released: EventSubscription? = sender.event.observe { log.entries.append("released \($0)") }
    let kept = sender.event.observe { log.entries.append("kept \($0)") }
    sender.send(1)
    await Task.detached { cancelled.cancel() }.value
    // The task holds the only reference, and drops it when it ends.
    await Task.detached { [released] in _ = released }.value
    released = nil
    sender.send(2)
    #expect(log.entries == ["cancelled 1", "released 1", "kept 1", "kept 2"])
    withExtendedLifetime(kept) {}
  }

  @Test(
    "The owner's notices run on the owner's actor, exact, when subscribers come and go elsewhere")
  @MainActor
  func noticesOnTheOwnersActor() async {
    let (notices, told) = AsyncStream.makeStream(of: String.self)
    let log = MainLog()
    let sender = EventSender<Int>(
      onFirstObserver: {
        MainActor.preconditionIsolated("a notice ran off the owner's actor")
        log.entries.append("first")
        told.yield("first")
      },
      onLastObserverGone: {
        MainActor.preconditionIsolated("a notice ran off the owner's actor")
        log.entries.append("last")
        told.yield("last")
      })
    let event = sender.event
    await Task.detached {
      for _ in 0..<50 {
        let subscription = event.observe { _ in }
        subscription.cancel()
        _ = event.observe { _ in }  // released at once
      }
    }.value
    var heard: [String] = []
    for await notice in notices {
      heard.append(notice)
      if heard.count == 200 { break }
    }
    #expect(heard == Array(repeating: ["first", "last"], count: 100).flatMap { $0 })
    #expect(log.entries == heard)
  }

  @Test("Subscriptions made where no actor is are called one send at a time, whatever thread sends")
  func nonisolatedSubscribersOneAtATime() async {
    let sender = EventSender<Int>()
    let (active, overlaps, calls) = (Locked(0), Locked(0), Locked(0))
    let subscription = sender.event.observe { _ in
      if active.withLock({
        $0 += 1
        return $0
      }) > 1 {
        overlaps.withLock { $0 += 1 }
      }
      calls.withLock { $0 += 1 }
      active.withLock { $0 -= 1 }
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask { await onNewThread { for value in 0..<5_000 { sender.send(value) } } }
      }
    }
    #expect(overlaps.withLock { $0 } == 0, "a handler was called while it was running")
    #expect(calls.withLock { $0 } == 20_000)
    withExtendedLifetime(subscription) {}
  }

  @Test("An actor's observable value: main-actor observers hear every assignment, in order")
  @MainActor
  func observableValueFromAnActor() async {
    let meter = Meter()
    let log = MainLog()
    let subscription = meter.level.observe { old, new in
      MainActor.preconditionIsolated("a main-actor observer was called off the main actor")
      log.changes.append(Change(old: old, new: new))
    }
    await meter.ramp(to: 1_000)
    #expect(meter.level.value == 1_000)
    // Set on the main actor: delivers what is queued first.
    meter.level.set(1_000)
    let expected =
      (0..<1_000).map { Change(old: $0, new: $0 + 1) } + [Change(old: 1_000, new: 1_000)]
    #expect(log.changes == expected)
    withExtendedLifetime(subscription) {}
  }

  @Test("Neither a subscription made on an actor nor a sender made on one keeps that actor alive")
  func actorsAreNotKeptAlive() async {
    let sender = EventSender<Int>()
    var listening: Listening? = Listening()
    await listening?.listen(to: sender.event)
    weak let watchedListening = listening
    listening = nil
    #expect(watchedListening == nil, "an actor's subscription kept it alive")
    #expect(!sender.hasObservers)

    var ticking: Ticking? = Ticking()
    await ticking?.start()
    weak let watchedTicking = ticking
    ticking = nil
    #expect(watchedTicking == nil, "a sender made on an actor kept it alive")
  }

  @Test("An actor observing a value as its target hears every change on the actor, and is not kept")
  func actorObservesAValue() async {
    let level = ObservableValue(0)
    var gauge: Gauge? = Gauge()
    await gauge?.watch(level)
    await Task.detached { for value in 1...100 { level.set(value) } }.value
    let changes = await gauge?.set(level, to: 101)
    #expect(changes == (0...100).map { Change(old: $0, new: $0 + 1) })
    weak let watched = gauge
    gauge = nil
    // A drain task on its way to the actor may hold it until it gets there;
    // then it finds its reference the last, and lets it go.
    await waitForDeliveries()
    #expect(watched == nil, "a value kept its observing actor alive")
  }

  @Test("Ending a subscription releases its handler's captures at once, with others alive")
  func endingReleasesCaptures() async {
    final class Captured: Sendable {}
    let sender = EventSender<Int>()
    let kept = sender.event.observe { _ in }
    var captured: Captured? = Captured()
    weak let watched = captured
    let cancelled = sender.event.observe { [captured] _ in _ = captured }
    captured = nil
    #expect(watched != nil)
    cancelled.cancel()
    #expect(watched == nil, "a cancelled subscription kept its captures")

    // An actor whose closure captures it is freed once it cancels.
    var listening: Listening? = Listening()
    await listening?.listenCapturing(sender.event)
    weak let watchedActor = listening
    await listening?.stopListening()
    listening = nil
    #expect(watchedActor == nil, "a cancelled subscription kept its actor")
    withExtendedLifetime(kept) {}
  }

  @Test("Assigning the value delivers to observers isolated to no actor before it returns")
  func assignmentWithoutActor() {
    let volume = ObservableValue(1)
    let heard = Locked<[Change]>([])
    let subscription = volume.observe { old, new in
      heard.withLock { $0.append(Change(old: old, new: new)) }
    }
    volume.value = 2
    #expect(heard.withLock { $0 } == [Change(old: 1, new: 2)])
    withExtendedLifetime(subscription) {}
  }
}

/// The promise a send makes to subscriptions made where no actor is, in the
/// words of the README and of `EventSender`'s documentation.
let noActorPromise = """
  A send to subscriptions made where no actor is returns before they hear \
  its value when another thread is delivering to them: that thread delivers \
  it, in order, or hands it to a drain task once its own work is done.
  """

/// The text of `path`, relative to the package's root, with doc-comment
/// markers dropped and every run of white space made one space.
func prose(at path: String) throws -> String {
  let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  return text.replacingOccurrences(of: "///", with: " ")
    .split(whereSeparator: \.isWhitespace).joined(separator: " ")
}

@Suite("The promise to subscriptions made where no actor is")
struct NoActorPromiseTests {
  @Test(
    "The README and the documentation state it in the same words",
    arguments: ["README.md", "Sources/Multicast/Faces/EventSender.swift"])
  func statedLiterally(path: String) throws {
    #expect(try prose(at: path).contains(noActorPromise))
  }

  @Test(
    "Three threads sending at once: each value is heard once, each thread's in its order, one at a time, all by the time deliveries are waited for"
  )
  func threeThreadsSendAtOnce() async {
    let sender = EventSender<Int>()
    let (heard, active, overlaps) = (Locked<[Int]>([]), Locked(0), Locked(0))
    let subscription = sender.event.observe { value in
      if active.withLock({
        $0 += 1
        return $0
      }) > 1 {
        overlaps.withLock { $0 += 1 }
      }
      heard.withLock { $0.append(value) }
      active.withLock { $0 -= 1 }
    }
    let perThread = 3_000
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<3 {
        group.addTask {
          await onNewThread {
            for step in 0..<perThread { sender.send(thread * perThread + step) }
          }
        }
      }
    }
    // Every send has returned; what a deliverer left past its budget is on
    // a drain task.
    await Task.detached { await waitForDeliveries() }.value
    let values = heard.withLock { $0 }
    #expect(values.count == 3 * perThread)
    #expect(Set(values).count == 3 * perThread)
    for thread in 0..<3 {
      let mine = values.filter { $0 / perThread == thread }
      #expect(mine == Array(thread * perThread..<(thread + 1) * perThread))
    }
    #expect(overlaps.withLock { $0 } == 0)
    withExtendedLifetime(subscription) {}
  }
}
