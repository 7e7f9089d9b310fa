// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// Says when it is deinitialized.
private final class SweepTestObserver: Pinging {
  let onDeinit: () -> Void
  init(onDeinit: @escaping () -> Void = {}) { self.onDeinit = onDeinit }
  deinit { onDeinit() }
}

/// What a sweep's hook saw.
private final class SweepTestRecord {
  var sweeps = 0
  var isInHook = false
  var diedInHook = false
}

/// A target with nothing to hear.
private final class SweepTestTarget {}

/// Subscribes where no actor is, and cancels there.
private nonisolated func subscribeAndCancelWithoutActor(_ sender: EventSender<Int>) {
  let subscription = sender.event.observe(isolation: nil) { _ in }
  subscription.cancel(isolation: nil)
}

@Suite("Sweeps drop dead observers and hold none")
struct SweepTests {
  @MainActor
  @Test(
    "When a sweep drops the last registrations, dead targets of another actor, the owner hears that the last observer is gone at once"
  )
  func lastObserverGoneWhenSweepDropsTheRest() {
    let told = Locked(0)
    let sender = EventSender<Int>(isolation: nil, onLastObserverGone: { told.withLock { $0 += 1 } })
    // Seven target subscriptions on the main actor, whose targets die: they
    // count as alive for a change made elsewhere, which does not load them.
    do {
      let targets = (0..<7).map { _ in SweepTestTarget() }
      for target in targets { sender.event.observe(target) { _, _ in } }
    }
    // The eighth registration, made and cancelled where no actor is, makes a
    // sweep due; the sweep drops the seven.
    subscribeAndCancelWithoutActor(sender)
    #expect(told.withLock { $0 } == 1)
    #expect(!sender.hasObservers)
  }

  #if DEBUG
  @Test(
    "A sweep has let every observer go before it takes the lock: one released by its last holder meanwhile dies there and then"
  )
  func sweepHoldsNoObserver() {
    let delegate = MulticastDelegate<any Pinging>()
    let record = SweepTestRecord()
    var released: SweepTestObserver? = SweepTestObserver { record.diedInHook = record.isInHook }
    weak let watched = released
    delegate.addObserver(released!)
    delegate.betweenSweepPhases { [weak delegate] in
      guard delegate != nil else { return }
      record.sweeps += 1
      // The last reference outside the storage goes now: if the sweep
      // still held the observer, it would die later, on the sweep's release.
      guard record.sweeps == 1 else { return }
      record.isInHook = true
      released = nil
      record.isInHook = false
    }
    // The ninth registration fills the second buffer (room for 9) with a
    // sweep due (after eight), and sweeps once it has unlocked.
    let others = (0..<9).map { _ in SweepTestObserver() }
    for observer in others { delegate.addObserver(observer) }
    #expect(record.sweeps == 1)
    #expect(record.diedInHook, "the observer outlived its last holder's release")
    #expect(watched == nil)
    #expect(delegate.count == others.count)
    withExtendedLifetime(others) {}
  }
  #endif

  @Test(
    "Observers that died unremoved are dropped before the buffer grows for them, and the live ones kept in order",
    arguments: Path.allCases)
  func deadDroppedBeforeGrowing(path: Path) {
    let delegate = path.make((any Pinging).self)
    let survivors = (0..<4).map { _ in Silent() }
    for observer in survivors { delegate.addObserver(observer) }
    // Registrations of observers that die at once, until well past several
    // sweeps: the buffer holds the survivors and at most a few dozen dead.
    var largest = 0
    for _ in 0..<1_000 {
      delegate.addObserver(Silent())
      largest = max(largest, delegate.bufferFill.capacity)
    }
    delegate.checkInvariants()
    #expect(delegate.count == survivors.count)
    #expect(largest <= 40, "the buffer grew to \(largest) entries for 4 live observers")
    var heard: [ObjectIdentifier] = []
    delegate.invoke { heard.append(ObjectIdentifier($0)) }
    #expect(heard == survivors.map(ObjectIdentifier.init))
  }
}
