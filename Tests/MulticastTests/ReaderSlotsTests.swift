// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Testing

@testable import Multicast

/// An observer that knows its place in registration order.
protocol InOrder: AnyObject, Sendable {
  var number: Int { get }
  func visit()
}

/// A numbered observer that does nothing when visited.
final class Place: InOrder {
  let number: Int
  init(_ number: Int) { self.number = number }
  func visit() {}
}

/// A numbered observer that, when visited, says so and waits to be let go:
/// a broadcast that stays in its buffer while other threads change it.
final class Turnstile: InOrder {
  let number: Int
  let entered = DispatchSemaphore(value: 0)
  let leave = DispatchSemaphore(value: 0)
  init(_ number: Int) { self.number = number }
  func visit() {
    entered.signal()
    leave.wait()
  }
}

@Suite("Readers")
struct ReaderSlotsTests {
  /// When a transient observer's registration and its end began and
  /// ended, by the test's clock (an end by release has no noted end: the
  /// observer lives on while a broadcast holds it).
  struct Lifetime: Sendable {
    var addBegan = 0, addEnded = 0
    var endBegan: Int?, endEnded: Int?
  }

  /// One broadcast: when it began and ended, by the test's clock, and whom
  /// it reached, in order.
  struct Round: Sendable {
    var start = 0, end = 0
    var visited: [Int] = []
  }

  @Test(
    "Broadcasts on two threads while a third grows, compacts and empties the buffer reach exactly the observers registered throughout, once each, in order"
  )
  func broadcastsWhileTheBufferMoves() async {
    let delegate = MulticastDelegate<any InOrder>()
    let lasting = (0..<24).map { Place($0) }
    for observer in lasting { delegate.addObserver(observer) }
    let clock = Locked(0)
    @Sendable func now() -> Int {
      clock.withLock {
        $0 += 1
        return $0
      }
    }
    let churned = Locked(false)

    // Broadcasts until the churn is over, noting each one's interval.
    @Sendable func broadcast() -> [Round] {
      var rounds: [Round] = []
      while rounds.count < 1_000 || !churned.withLock({ $0 }) {
        var round = Round()
        round.visited.reserveCapacity(64)
        round.start = now()
        delegate { round.visited.append($0.number) }
        round.end = now()
        rounds.append(round)
      }
      return rounds
    }

    // Registers transient observers in rising numbers and ends them (removal,
    // release, or all at once), so that the buffer grows, is compacted and
    // shrinks while the broadcasts read it.
    @Sendable func churn() -> [Int: Lifetime] {
      var random = SplitMix64(state: 0x5EED)
      var lifetimes: [Int: Lifetime] = [:]
      var held: [Place] = []
      func end(_ observer: Place, removing: Bool) {
        lifetimes[observer.number]!.endBegan = now()
        if removing { delegate.removeObserver(observer) }
      }
      func ended(_ number: Int) { lifetimes[number]!.endEnded = now() }
      for number in lasting.count..<(lasting.count + 6_000) {
        let observer = Place(number)
        lifetimes[number] = Lifetime(addBegan: now())
        delegate.addObserver(observer)
        lifetimes[number]!.addEnded = now()
        held.append(observer)
        switch random.next() % 4 {
        case 0:
          let first = held.removeFirst()
          end(first, removing: true)
          ended(first.number)
        case 1:
          // The only reference goes: the observer dies while registered,
          // once a broadcast that holds it for its call lets it go too, so
          // its end has a beginning but no end the test can note.
          lifetimes[held[held.count - 1].number]!.endBegan = now()
          held.removeLast()
        case 2 where held.count > 40:
          for observer in held { end(observer, removing: true) }
          for observer in held { ended(observer.number) }
          held.removeAll()
        default:
          break
        }
      }
      for observer in held {
        end(observer, removing: true)
        ended(observer.number)
      }
      churned.withLock { $0 = true }
      return lifetimes
    }

    async let first = onNewThread(broadcast)
    async let second = onNewThread(broadcast)
    async let lifetimes = onNewThread(churn)
    let failures = Self.check(
      await first + second, against: await lifetimes, lasting: lasting.count)
    #expect(failures.isEmpty, "\(failures.prefix(5))")
    delegate.checkInvariants()
    // The last broadcast to leave freed every buffer replaced under it.
    #expect(delegate.retiredBufferCount == 0)
    #expect(delegate.count == lasting.count)
  }

  /// Checks each broadcast against the observers' lifetimes: it reaches, in
  /// registration order, every lasting observer and every transient one
  /// registered before it began and not ended before it ended; and no
  /// observer registered after it ended or removed before it began.
  static func check(_ rounds: [Round], against lifetimes: [Int: Lifetime], lasting: Int) -> [String]
  {
    var failures: [String] = []
    // A sweep in time: `alive` holds the observers registered before the
    // round began, and not yet being ended then.
    let added = lifetimes.sorted { $0.value.addEnded < $1.value.addEnded }
    let ending = lifetimes.compactMap { number, life in life.endBegan.map { ($0, number) } }
      .sorted { $0.0 < $1.0 }
    var alive = Set<Int>()
    var (nextAdded, nextEnding) = (0, 0)
    for round in rounds.sorted(by: { $0.start < $1.start }) {
      while nextAdded < added.count && added[nextAdded].value.addEnded < round.start {
        alive.insert(added[nextAdded].key)
        nextAdded += 1
      }
      while nextEnding < ending.count && ending[nextEnding].0 < round.start {
        alive.remove(ending[nextEnding].1)
        nextEnding += 1
      }
      if zip(round.visited, round.visited.dropFirst()).contains(where: { $0 >= $1 }) {
        failures.append("a broadcast visited out of order, or twice: \(round.visited)")
      }
      let visited = Set(round.visited)
      let missed =
        (0..<lasting).filter { !visited.contains($0) }
        + alive.filter { lifetimes[$0]!.endBegan.map { $0 > round.end } ?? true }
        .filter { !visited.contains($0) }
      if !missed.isEmpty {
        failures.append("a broadcast missed \(missed.sorted()), visiting \(round.visited)")
      }
      for number in round.visited where number >= lasting {
        let life = lifetimes[number]!
        if life.addBegan > round.end || (life.endEnded.map { $0 < round.start } ?? false) {
          failures.append("a broadcast visited \(number) outside its registration")
        }
      }
    }
    return failures
  }

  @Test(
    "A broadcast held on one thread keeps the one buffer it reads while another thread replaces buffers, and frees it as it leaves"
  )
  func heldBroadcastKeepsOnlyItsBuffer() async {
    let delegate = MulticastDelegate<any InOrder>()
    let gate = Turnstile(0)
    let first = (1...3).map { Place($0) }
    delegate.addObserver(gate)
    for observer in first { delegate.addObserver(observer) }

    let held = Task.detached {
      await onNewThread {
        var visited: [Int] = []
        delegate { observer in
          visited.append(observer.number)
          observer.visit()
        }
        return visited
      }
    }
    // The broadcast is in the gate's visit, counted as a reader of the
    // buffer with room for four.
    await onNewThread { gate.entered.wait() }

    // Another thread grows the buffer many times over, broadcasting now and
    // then, and removes one of the first observers the held broadcast has
    // yet to reach.
    let later = await onNewThread {
      delegate.removeObserver(first[1])
      var later: [Place] = []
      for number in 4..<200 {
        let observer = Place(number)
        delegate.addObserver(observer)
        later.append(observer)
        if number % 16 == 0 { delegate { _ in } }
      }
      return later
    }
    // Only the buffer the held broadcast reads waits; every later one was
    // replaced with no broadcast reading it, and freed at once.
    #expect(delegate.retiredBufferCount == 1)

    gate.leave.signal()
    let visited = await held.value
    // It reached the observers registered when it began, less the one
    // removed before its turn, in order, and none registered after.
    #expect(visited == [0, 1, 3])
    #expect(delegate.retiredBufferCount == 0)
    delegate.checkInvariants()
    #expect(delegate.count == 3 + later.count)
    // Kept to here: an optimized build may release a local after its last
    // use, and an observer released early would rightly not be reached.
    withExtendedLifetime((gate, first, later)) {}
  }

  @Test(
    "A lone subscription that cancels itself during a send lets its handler's captures go when the send ends"
  )
  func cancelledDuringSendReleasesCaptures() {
    final class Captured {}
    let sender = EventSender<Int>()
    weak var captured: Captured?
    var subscription: EventSubscription?
    do {
      let kept = Captured()
      captured = kept
      // The buffer is read while the handler cancels, so the entry stays,
      // flagged, until the send ends and the buffer it read is freed.
      subscription = sender.event.observe { _ in
        withExtendedLifetime(kept) {}
        subscription?.cancel()
      }
    }
    #expect(captured != nil)
    sender.send(1)
    #expect(captured == nil)
  }

  #if DEBUG
  @Test(
    "A broadcast overtaken, as it begins, by a section that flips the epoch begins again, counted where compaction sees it"
  )
  func overtakenBeginStartsAgain() {
    let delegate = MulticastDelegate<any InOrder>()
    var observers = (0..<5).map { Place($0) }
    for observer in observers { delegate.addObserver(observer) }
    // In the window of the next broadcast's begin, after it read the
    // version: another broadcast whose handler grows the buffer it reads,
    // so that the buffer is copied and the epoch flips.
    var overtaken = false
    // Weak: the delegate keeps the hook.
    delegate.beforeCountingBroadcast { [weak delegate] in
      guard let delegate, !overtaken else { return }
      overtaken = true
      delegate { observer in
        guard observer.number == 0 else { return }
        for number in 5..<25 {
          let added = Place(number)
          observers.append(added)
          delegate.addObserver(added)
        }
      }
    }
    // The overtaken broadcast, halfway, removes most of the observers before
    // it and two after it, so that the buffer is compacted while the
    // broadcast reads it: in place, sliding the later observers below its
    // position, if the broadcast were not counted where compaction looks.
    var visited: [Int] = []
    delegate { observer in
      visited.append(observer.number)
      if observer.number == 12 {
        for removed in observers[1...11] + observers[13...14] { delegate.removeObserver(removed) }
      }
    }
    #expect(overtaken)
    #expect(visited == Array(0...12) + Array(15..<25))
    delegate.checkInvariants()
    #expect(delegate.retiredBufferCount == 0)
  }

  @Test(
    "A begin counted in an epoch that flips, whose buffer later sections free before it checks, touches no freed memory and begins again"
  )
  func staleEpochBeginTouchesNoFreedBuffer() {
    let delegate = MulticastDelegate<any InOrder>()
    var observers: [Place] = []
    // The hooks below hold the delegate weakly: it keeps them.
    func add(to delegate: MulticastDelegate<any InOrder>) {
      let added = Place(observers.count)
      observers.append(added)
      delegate.addObserver(added)
    }
    func isFull(_ delegate: MulticastDelegate<any InOrder>) -> Bool {
      let fill = delegate.bufferFill
      return fill.count == fill.capacity
    }
    // Enough observers that the buffer, over glibc's first threshold (128
    // KiB), is mapped on its own, and freeing it unmaps it (in a fresh
    // process: freeing such a buffer raises the threshold), so that reading
    // it would fault rather than read stale bytes; and a full buffer, so
    // that the next registration replaces it. Few enough for the checked
    // build, which checks every registration at O(n).
    repeat { add(to: delegate) } while observers.count < 4_000 || !isFull(delegate)
    var step = 0
    // In the window before the begin counts itself: a broadcast that grows
    // the buffer it reads, so that the epoch flips in that section and the
    // begin is counted in the old one; the new buffer is newer than the
    // epoch, so sections look only at the new epoch's count for it.
    delegate.beforeCountingBroadcast { [weak delegate] in
      guard let delegate, step == 0 else { return }
      step = -1
      delegate { observer in if observer.number == 0 { add(to: delegate) } }
      step = 1
    }
    // After it read the words, before it checks them: enough registrations
    // to replace the buffer it read the address of.
    delegate.afterReadingBroadcastWords { [weak delegate] in
      guard let delegate, step == 1 else { return }
      step = 2
      while !isFull(delegate) { add(to: delegate) }
      add(to: delegate)
      // Freed, not kept: no broadcast counted where sections look reads it.
      #expect(delegate.retiredBufferCount == 0)
    }
    var visited = 0
    delegate { _ in visited += 1 }
    #expect(step == 2)
    // It began again, with the lock, after every registration above.
    #expect(visited == observers.count)
    delegate.checkInvariants()
    #expect(delegate.retiredBufferCount == 0)
  }
  #endif
}
