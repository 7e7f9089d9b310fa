// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Multicast
import Testing

/// An actor on the main actor's executor that cancels its subscription in
/// its `deinit`, as a tidy owner does.
private actor CancelsInDeinit {
  nonisolated var unownedExecutor: UnownedSerialExecutor { MainActor.sharedUnownedExecutor }
  private var subscription: EventSubscription?
  private let died: Locked<Bool>

  init(died: Locked<Bool>) { self.died = died }

  func follow(_ event: Event<Int>) { subscription = event.observe { _ in } }

  deinit {
    subscription?.cancel()
    died.withLock { $0 = true }
  }
}

/// Sends from code isolated to no actor: when it runs on the main actor's
/// executor, the library asks which actors that executor serves.
private func sendFromNoActor(_ sender: EventSender<Int>, _ value: Int) {
  sender.send(value)
}

/// Makes an actor that follows `event` and returns the only reference to it.
@MainActor
private func follower(of event: Event<Int>, died: Locked<Bool>) async -> Locked<
  CancelsInDeinit?
> {
  let actor = CancelsInDeinit(died: died)
  await actor.follow(event)
  return Locked(actor)
}

/// Each round, main-actor code sends while another thread drops the last
/// reference to an actor subscribed to the same event, until it died.
@MainActor
private func sendWhileFollowersDie(rounds: Int, _ watchdog: Watchdog) async {
  let sender = EventSender<Int>()
  for round in 0..<rounds {
    watchdog.progress.withLock { $0 = round }
    let died = Locked(false)
    let lastReference = await follower(of: sender.event, died: died)
    Thread { lastReference.withLock { $0 = nil } }.start()
    while !died.withLock({ $0 }) { sendFromNoActor(sender, round) }
  }
}

@Suite("Deinitializers and the library's locks")
struct DeadlockTests {
  /// A deadlock would hang the test, so it runs in a child process that a
  /// watchdog ends.
  @Test(
    "A send from the main actor's executor while another thread releases an actor sharing it, whose deinit cancels its subscription, does not deadlock"
  )
  func deinitDuringSendDoesNotDeadlock() async {
    await #expect(processExitsWith: .success) {
      // The watchdog's time is above a whole run under a sanitizer, where
      // every test shares two cores: only a deadlock outlasts it.
      let watchdog = Watchdog(seconds: 300, "300 rounds of sends racing a deinit")
      await sendWhileFollowersDie(rounds: 300, watchdog)
      watchdog.stop()
    }
  }

  /// A derived value that reconnects lets go of the inputs it kept while
  /// not observed; their `deinit` runs under no lock, so it may observe the
  /// derived value itself.
  @Test(
    "An input a derived value kept while not observed, released as it reconnects, may observe the derived value in its deinit"
  )
  func inputReleasedOnReconnectMayObserve() async {
    await #expect(processExitsWith: .success) {
      let watchdog = Watchdog(seconds: 60, "a deinit observing a derived value")
      let source = ObservableValue<DeinitProbe?>(nil)
      let derived = source.map { $0 }
      let observedInDeinit = Locked(false)
      source.value = DeinitProbe {
        // From the current value: this holds the derived value's link.
        let subscription = derived.observeValue { _ in }
        subscription.cancel()
        observedInDeinit.withLock { $0 = true }
      }
      // Connected, the derivation records the probe; cancelled, it keeps it.
      derived.observe { _, _ in }.cancel()
      // While it is not observed, the source lets go of the probe.
      source.value = nil
      // Reconnecting drops the probe it kept: its deinit observes.
      let subscription = derived.observe { _, _ in }
      #expect(observedInDeinit.withLock { $0 })
      subscription.cancel()
      watchdog.stop()
    }
  }
}

/// An object that runs `onDeinit` when released.
private final class DeinitProbe: Sendable {
  let onDeinit: @Sendable () -> Void
  init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
  deinit { onDeinit() }
}
