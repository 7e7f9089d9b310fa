// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// A class-bound observer protocol whose observers may cross threads.
protocol Counting: AnyObject, Sendable {
  func tick()
}

/// An observer that counts its calls under a lock.
final class Counter: Counting {
  private let calls = Locked(0)
  var count: Int { calls.withLock { $0 } }
  func tick() { calls.withLock { $0 += 1 } }
}

/// A small deterministic generator, so that a failing run can be repeated.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite("Threads")
struct MulticastDelegateConcurrencyTests {
  /// What one task did, reported when it joins.
  struct Outcome: Sendable {
    var broadcasts = 0
    /// Registered by the task before its first broadcast, removed after its last.
    var own = Counter()
    var stillRegistered: [Counter] = []
    var removedForGood: [Counter] = []
  }

  @Test(
    "Eight tasks adding, removing and broadcasting at once leave an exact result",
    arguments: Path.allCases)
  func stress(path: Path) async {
    let delegate = path.make((any Counting).self)
    let stable = (0..<16).map { _ in Counter() }
    for observer in stable { delegate.addObserver(observer) }

    let outcomes = await withTaskGroup(of: Outcome.self) { group in
      for task in 0..<8 {
        group.addTask {
          var random = SplitMix64(state: UInt64(task) &* 7919)
          var outcome = Outcome()
          delegate.addObserver(outcome.own)
          var held: [Counter] = []
          for _ in 0..<3_000 {
            switch random.next() % 8 {
            case 0, 1:
              let observer = Counter()
              delegate.addObserver(observer)
              held.append(observer)
            case 2 where !held.isEmpty:
              let observer = held.remove(at: Int(random.next() % UInt64(held.count)))
              delegate.removeObserver(observer)
              outcome.removedForGood.append(observer)
            case 3 where !held.isEmpty:
              // Drop the only reference: the observer dies while registered.
              held.remove(at: Int(random.next() % UInt64(held.count)))
            case 4:
              if let observer = held.last { #expect(delegate.contains(observer)) }
              _ = delegate.count
              _ = delegate.isEmpty
            default:
              delegate { $0.tick() }
              outcome.broadcasts += 1
            }
          }
          delegate.removeObserver(outcome.own)
          outcome.stillRegistered = held
          return outcome
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }

    delegate.checkInvariants()
    // Every buffer replaced while broadcasts read it was freed by its last
    // reader, or by the replacement if its readers had all left.
    #expect(delegate.retiredBufferCount == 0)
    let broadcasts = outcomes.reduce(0) { $0 + $1.broadcasts }
    // Every stable observer was registered before any broadcast began.
    for observer in stable { #expect(observer.count == broadcasts) }
    let held = outcomes.flatMap(\.stillRegistered)
    #expect(delegate.count == stable.count + held.count)
    for observer in held { #expect(delegate.contains(observer)) }

    // A task's own observer was registered before each of its broadcasts
    // began and removed after each ended: it got all of them, and no more
    // than all broadcasts made by every task.
    for outcome in outcomes {
      #expect(outcome.own.count >= outcome.broadcasts)
      #expect(outcome.own.count <= broadcasts)
    }

    // One more broadcast reaches exactly the registered observers.
    let removed = outcomes.flatMap(\.removedForGood) + outcomes.map(\.own)
    let before = removed.map(\.count)
    let heldBefore = held.map(\.count)
    delegate { $0.tick() }
    #expect(removed.map(\.count) == before)
    #expect(held.map(\.count) == heldBefore.map { $0 + 1 })
    for observer in stable { #expect(observer.count == broadcasts + 1) }
  }

  @Test("Broadcasts from many tasks while observers die never call a dead observer")
  func broadcastsWhileObserversDie() async {
    let delegate = MulticastDelegate<any Counting>()
    let keeper = Counter()
    delegate.addObserver(keeper)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<2_000 { delegate { $0.tick() } }
        }
      }
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<2_000 {
            let transient = Counter()
            delegate.addObserver(transient)
          }
        }
      }
    }
    delegate.checkInvariants()
    #expect(delegate.retiredBufferCount == 0)
    #expect(keeper.count == 8_000)
    #expect(delegate.count == 1)
  }

  @Test("A multicast delegate of Sendable observers is used from detached tasks")
  func sendableAcrossDetachedTasks() async {
    let delegate = MulticastDelegate<any Counting>()
    let observers = (0..<8).map { _ in Counter() }
    let adders = observers.map { observer in
      Task.detached { delegate.addObserver(observer) }
    }
    for adder in adders { await adder.value }
    #expect(delegate.count == 8)
    let broadcasters = (0..<8).map { _ in
      Task.detached { delegate { $0.tick() } }
    }
    for broadcaster in broadcasters { await broadcaster.value }
    for observer in observers { #expect(observer.count == 8) }
    let removers = observers.map { observer in
      Task.detached { delegate.removeObserver(observer) }
    }
    for remover in removers { await remover.value }
    #expect(delegate.isEmpty)
  }
}
