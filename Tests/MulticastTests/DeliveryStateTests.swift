// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// A source that only labels jobs: the state machine never calls it.
private final class Labels: _DeliverySource, Sendable {
  func deliver(_ jobs: UnsafeBufferPointer<_DeliveryJob>, at destination: _Destination) {}
  func drop(_ jobs: UnsafeBufferPointer<_DeliveryJob>, at destination: _Destination) {}
}

/// One destination's state, driven the way a destination drives it: jobs
/// are numbered, and the batch a transition hands out is kept here.
private final class Machine {
  /// The source of every machine's jobs.
  ///
  /// Each job made keeps it alive with a reference, which the machine gives back where a destination would: once the job
  /// is delivered or dropped, or when the machine goes.
  private static let labels = Labels()
  private var labels: Labels { Self.labels }
  var state = _DeliveryState()
  var batch: [_DeliveryJob] = []

  var batchNumbers: [Int] { batch.map(Self.number) }
  var waitingNumbers: [Int] { state.waiting.map(Self.number) }

  /// A job's number: the end of the send it stands for.
  private static func number(_ job: _DeliveryJob) -> Int {
    guard case .send(_, let end) = job.kind else {
      preconditionFailure("a machine's job is a send")
    }
    return Int(end)
  }

  /// Job `number` arrives from `thread`; a batch it is handed replaces the
  /// current one.
  func arrive(_ number: Int, isHere: Bool, thread: UInt32 = 1) -> _DeliveryState.Arrival {
    var taken: [_DeliveryJob] = []
    let job = _DeliveryJob(labels, .send(_Value(value: ()), end: UInt64(number)))
    let arrival = state.arrive({ job }, isHere: isHere, thread: thread, taking: &taken)
    if arrival == .deliverDirectly { job.finish() }
    if arrival == .deliverBatch { batch = taken }
    check()
    return arrival
  }

  func claim() -> Bool { transition { $0.claim(taking: &$1, thread: 1) } }
  func startDrain() -> Bool { transition { $0.startDrain(taking: &$1, thread: 3) } }

  /// Hands back the delivered batch and takes the next, within budget.
  func next() -> Bool {
    if case .deliver = next(isPastBudget: false) { return true }
    return false
  }

  /// Hands back the delivered batch and takes the next, or stops.
  func next(isPastBudget: Bool) -> _DeliveryState.Next {
    finishBatch()
    defer { check() }
    return state.next(&batch, isPastBudget: isPastBudget)
  }

  /// Pauses between two batches, the batch delivered.
  func pause() -> Bool {
    finishBatch()
    defer { check() }
    return state.pause()
  }

  func cancelDrainIfIdle() -> Bool {
    defer { check() }
    return state.cancelDrainIfIdle()
  }

  func abandon() -> [Int] {
    var dropped: [_DeliveryJob] = []
    state.abandon(taking: &dropped)
    for job in dropped { job.finish() }
    check()
    return dropped.map(Self.number)
  }

  private func transition(_ body: (inout _DeliveryState, inout [_DeliveryJob]) -> Bool) -> Bool {
    defer { check() }
    return body(&state, &batch)
  }

  private func check() { state.checkInvariants() }

  /// Finishes the batch's jobs and empties it, keeping its buffer, as a
  /// destination does.
  private func finishBatch() {
    for job in batch { job.finish() }
    batch.removeAll(keepingCapacity: true)
  }

  /// The address of the batch's buffer.
  var batchBuffer: UnsafeRawPointer? {
    batch.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }

  deinit {
    for job in batch + state.waiting { job.finish() }
  }
}

@Suite("A destination's state machine")
struct DeliveryStateTests {
  @Test(
    "Work from the destination's isolation with nothing waiting is delivered directly; what arrives meanwhile waits for the delivery's next batch"
  )
  func directThenNext() {
    let machine = Machine()
    #expect(machine.arrive(1, isHere: true) == .deliverDirectly)
    #expect(machine.batch.isEmpty && machine.state.waiting.isEmpty && machine.state.isDelivering)
    // A handler sends, here or elsewhere: it waits, and nothing is scheduled.
    #expect(machine.arrive(2, isHere: true) == .none)
    #expect(machine.arrive(3, isHere: false) == .none)
    #expect(!machine.state.isScheduled)
    #expect(machine.next())
    #expect(machine.batchNumbers == [2, 3])
    #expect(!machine.next())
    #expect(!machine.state.isDelivering && !machine.state.isScheduled)
  }

  @Test(
    "The two transitions a destination makes without its lock are the machine's own: from idle to delivering alone, and back when nothing arrived"
  )
  func lockFreeTransitions() {
    let machine = Machine()
    #expect(machine.state.flags == .idle)
    #expect(machine.arrive(1, isHere: true) == .deliverDirectly)
    #expect(machine.state.flags == .onlyDelivering(by: 1))
    #expect(!machine.next())
    #expect(machine.state.flags == .idle)
    // Every other state has other flags, so no exchange that expects these
    // two succeeds in it.
    #expect(machine.arrive(2, isHere: false) == .scheduleDrain)
    #expect(machine.state.flags == [.scheduled, .waiting])
    #expect(machine.startDrain())
    // The drain's thread (3) delivers: only it can end the delivery alone.
    #expect(machine.state.flags == .onlyDelivering(by: 3))
    #expect(machine.state.flags != .onlyDelivering(by: 1))
    #expect(machine.arrive(3, isHere: true) == .none)
    #expect(machine.state.flags == .onlyDelivering(by: 3).union(.waiting))
    #expect(machine.next())
    #expect(machine.batchNumbers == [3])
    #expect(!machine.next())
    #expect(machine.state.flags == .idle)
  }

  @Test("The state takes what the lock-free transitions changed: who delivers")
  func adoptsLockFreeChanges() {
    let machine = Machine()
    // A caller here claimed the destination without the lock.
    machine.state.applyLockFreeTransitions(.onlyDelivering(by: 1))
    #expect(machine.arrive(1, isHere: false) == .none)
    #expect(machine.waitingNumbers == [1])
    #expect(machine.next())
    #expect(machine.batchNumbers == [1])
    #expect(!machine.next())
    #expect(machine.state.flags == .idle)
  }

  @Test("Work from elsewhere schedules one drain, which takes it all in arrival order")
  func oneDrainForMany() {
    let machine = Machine()
    #expect(machine.arrive(1, isHere: false) == .scheduleDrain)
    #expect(machine.arrive(2, isHere: false) == .none)
    #expect(machine.state.isScheduled)
    #expect(machine.startDrain())
    #expect(machine.batchNumbers == [1, 2])
    #expect(!machine.state.isScheduled && machine.state.isDelivering)
    #expect(!machine.next())
  }

  @Test("Work from the destination's isolation while work waits takes it all, its own last")
  func hereAfterWaiting() {
    let machine = Machine()
    _ = machine.arrive(1, isHere: false)
    _ = machine.arrive(2, isHere: false)
    #expect(machine.arrive(3, isHere: true) == .deliverBatch)
    #expect(machine.batchNumbers == [1, 2, 3])
    #expect(!machine.next())
    // The drain scheduled for 1 finds the work done.
    #expect(!machine.startDrain())
    #expect(!machine.state.isScheduled && !machine.state.isDelivering)
  }

  @Test("A drain that pauses between two batches gives its actor back and asks for one drain")
  func pausing() {
    let machine = Machine()
    for number in 1...3 { _ = machine.arrive(number, isHere: false) }
    #expect(machine.startDrain())
    #expect(machine.batchNumbers == [1, 2, 3])
    #expect(machine.arrive(4, isHere: false) == .none)
    // The batch is delivered; the time is up.
    #expect(machine.pause())
    #expect(machine.waitingNumbers == [4])
    #expect(machine.state.isScheduled && !machine.state.isDelivering)
    // A caller on the actor takes over, and pauses while that drain is still
    // scheduled: no second drain.
    #expect(machine.claim())
    #expect(machine.batchNumbers == [4])
    #expect(machine.arrive(5, isHere: false) == .none)
    #expect(!machine.pause())
    #expect(machine.waitingNumbers == [5] && machine.state.isScheduled)
    // Paused with nothing left: no drain is asked for.
    #expect(machine.startDrain())
    #expect(!machine.pause())
    #expect(machine.state.waiting.isEmpty)
    #expect(!machine.state.isScheduled && !machine.state.isDelivering)
  }

  @Test("Batches hold at most the batch limit, and follow each other in arrival order")
  func batchLimit() {
    let machine = Machine()
    let count = _DeliveryState.batchLimit + 8
    for number in 0..<count { _ = machine.arrive(number, isHere: false) }
    #expect(machine.startDrain())
    #expect(machine.batchNumbers == Array(0..<_DeliveryState.batchLimit))
    #expect(machine.next())
    #expect(machine.batchNumbers == Array(_DeliveryState.batchLimit..<count))
    #expect(!machine.next())
    #expect(machine.state.waiting.isEmpty && !machine.state.isDelivering)
  }

  @Test(
    "A delivered batch's buffer holds a later chunk, so that a flood frees none on the deliverer; no spare outlives the work"
  )
  func sparesReused() {
    let limit = _DeliveryState.batchLimit
    let machine = Machine()
    for number in 0..<3 * limit { _ = machine.arrive(number, isHere: false) }
    #expect(machine.startDrain())
    let first = machine.batchBuffer
    #expect(machine.next())
    #expect(machine.state.spareCount == 1)
    // The fourth chunk is made in the first batch's buffer.
    for number in 3 * limit..<4 * limit { _ = machine.arrive(number, isHere: false) }
    #expect(machine.state.spareCount == 0)
    #expect(machine.next() && machine.next())
    #expect(machine.batchNumbers == Array(3 * limit..<4 * limit))
    #expect(machine.batchBuffer == first)
    #expect(machine.state.spareCount == 2)
    // Nothing left: a finish under the lock lets the spares go, freed after unlocking.
    #expect(!machine.next())
    #expect(machine.state.spareCount == 0 && machine.state.flags == .idle)
    #expect(machine.state.takeGarbage()?.spares.count == 2)
    #expect(machine.state.takeGarbage() == nil)
  }

  @Test("Spares let go twice before their buffers are taken are all taken, none kept")
  func sparesLetGoTwice() {
    let limit = _DeliveryState.batchLimit
    let machine = Machine()
    var dropped: [Int] = []
    for _ in 0..<2 {
      for number in 0..<2 * limit { _ = machine.arrive(number, isHere: false) }
      #expect(machine.startDrain() && machine.next())
      dropped.append(machine.state.spareCount)
      #expect(!machine.next())
    }
    #expect(dropped.allSatisfy { $0 > 0 } && machine.state.spareCount == 0)
    #expect(machine.state.takeGarbage()?.spares.count == dropped.reduce(0, +))
  }

  @Test("A scheduled drain with nothing left to do ends before it hops; one with work goes on")
  func cancellingAnIdleDrain() {
    let machine = Machine()
    _ = machine.arrive(1, isHere: false)
    #expect(!machine.cancelDrainIfIdle())
    #expect(machine.claim())
    #expect(!machine.next())
    #expect(machine.cancelDrainIfIdle())
    #expect(!machine.state.isScheduled)
  }

  @Test("A destination whose actor is gone gives up everything waiting and schedules nothing")
  func abandoning() {
    let machine = Machine()
    _ = machine.arrive(1, isHere: false)
    _ = machine.arrive(2, isHere: false)
    #expect(machine.abandon() == [1, 2])
    #expect(machine.state.waiting.isEmpty && !machine.state.isScheduled)
  }

  @Test("Claiming does nothing while a delivery is in progress or nothing waits")
  func claiming() {
    let machine = Machine()
    #expect(!machine.claim())
    #expect(machine.arrive(1, isHere: true) == .deliverDirectly)
    _ = machine.arrive(2, isHere: false)
    #expect(!machine.claim())
    #expect(machine.next())
    #expect(machine.batchNumbers == [2])
  }

  @Test(
    "A sender that became the deliverer delivers what it owes, its own job included, whatever its budget; then, past its budget, it stops and asks for a drain"
  )
  func senderBounded() {
    let limit = _DeliveryState.batchLimit
    // Two batches wait; the sender arrives from here and takes them over.
    let machine = Machine()
    for number in 1...2 * limit { _ = machine.arrive(number, isHere: false) }
    #expect(machine.arrive(2 * limit + 1, isHere: true) == .deliverBatch)
    #expect(machine.batchNumbers == Array(1...limit))
    // It owes the next batch and its own job, even past its budget.
    guard case .deliver(isOwed: true) = machine.next(isPastBudget: true) else {
      Issue.record("a deliverer stopped before delivering what it owes")
      return
    }
    #expect(machine.batchNumbers == Array(limit + 1...2 * limit))
    guard case .deliver(isOwed: true) = machine.next(isPastBudget: true) else {
      Issue.record("a deliverer stopped before delivering its own job")
      return
    }
    #expect(machine.batchNumbers == [2 * limit + 1])
    // Later work: within budget it goes on, past it it stops, once.
    _ = machine.arrive(2 * limit + 2, isHere: false)
    _ = machine.arrive(2 * limit + 3, isHere: false)
    guard case .deliver(isOwed: false) = machine.next(isPastBudget: false) else {
      Issue.record("a deliverer within its budget stopped")
      return
    }
    _ = machine.arrive(2 * limit + 4, isHere: false)
    // The drain that the first arrivals scheduled is still on its way.
    guard case .pauseScheduled = machine.next(isPastBudget: true) else {
      Issue.record("a deliverer past its budget, owing nothing, went on")
      return
    }
    #expect(machine.waitingNumbers == [2 * limit + 4])
    #expect(machine.state.isScheduled && !machine.state.isDelivering)
  }

  @Test(
    "What the deliverer's own thread sends while it delivers is part of what it owes; what other threads send is not"
  )
  func reentrantWorkIsOwed() {
    let machine = Machine()
    // Thread 1 delivers its send directly; its handler sends again.
    #expect(machine.arrive(1, isHere: true, thread: 1) == .deliverDirectly)
    #expect(machine.arrive(2, isHere: true, thread: 1) == .none)
    guard case .deliver(isOwed: true) = machine.next(isPastBudget: true) else {
      Issue.record("a deliverer stopped before what its own handlers sent")
      return
    }
    #expect(machine.batchNumbers == [2])
    // Thread 2 sends while thread 1 delivers: not thread 1's to deliver
    // once its budget is spent.
    #expect(machine.arrive(3, isHere: true, thread: 2) == .none)
    guard case .pause = machine.next(isPastBudget: true) else {
      Issue.record("a deliverer past its budget delivered another thread's send")
      return
    }
    #expect(machine.waitingNumbers == [3])
  }
}
