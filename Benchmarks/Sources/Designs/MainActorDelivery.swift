// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Synchronization

// A background producer and main-actor observers: what the library's
// `onMainActor` does, beside what users write without it.

/// Main-actor observers of ticks, as views and view models are.
@MainActor
package protocol MainActorTickObserver: AnyObject, Sendable {
  func tick(_ value: Int)
}

/// A main-actor observer that counts its ticks, and can wait for a number
/// of them.
@MainActor
package final class Screen: MainActorTickObserver {
  package private(set) var ticks = 0
  private var awaited = 0
  private var arrival: CheckedContinuation<Void, Never>?

  package init() {}

  package func tick(_ value: Int) {
    ticks += 1
    if ticks == awaited { arrival?.resume() }
  }

  /// Returns once the screen has had `count` ticks in all.
  package func waitUntilTicked(_ count: Int) async {
    guard ticks < count else { return }
    await withCheckedContinuation { continuation in
      awaited = count
      arrival = continuation
    }
  }
}

/// Ten main-actor screens, the ways to reach them from a background task,
/// and the same broadcasts made on the main actor.
package final class MainActorAudience: Sendable {
  package let screens: [Screen]
  private let observers = MulticastDelegate<any MainActorTickObserver>()
  private let ticks = EventSender<Int>()
  private let hop: HandWrittenHop

  @MainActor
  package init(count: Int) {
    screens = (0..<count).map { _ in Screen() }
    hop = HandWrittenHop(screens)
    for screen in screens {
      observers.addObserver(screen)
      // Subscribed on the main actor, so the event calls them there.
      ticks.event.observe(screen) { $0.tick($1) }
    }
  }

  /// The same broadcasts made on the main actor, each delivered before
  /// `invoke` returns: what a hop to the main actor is measured against.
  @MainActor
  package func broadcastOnMainActor(_ events: Range<Int>) {
    for value in events { observers.invoke { $0.tick(value) } }
  }

  /// The library's event: the screens subscribed on the main actor, and the
  /// sends queued for it, drained in batches.
  package func sendThroughEvent(_ events: Range<Int>) async {
    await Task.detached { [ticks] in
      for value in events { ticks.send(value) }
    }.value
    await screens.last!.waitUntilTicked(events.upperBound)
  }

  /// The library: one queue, drained in batches on the main actor.
  package func sendThroughMulticast(_ events: Range<Int>) async {
    await Task.detached { [observers] in
      for value in events { observers.onMainActor { $0.tick(value) } }
    }.value
    await screens.last!.waitUntilTicked(events.upperBound)
  }

  /// The tightest hop anyone could write: closures appended to an array
  /// under a lock, swapped out and run by one main-actor task, each over the
  /// screens held weakly, with no order kept across subjects or actors.
  package func sendThroughHandWrittenHop(_ events: Range<Int>) async {
    await Task.detached { [hop] in
      for value in events { hop.send { $0.tick(value) } }
    }.value
    await screens.last!.waitUntilTicked(events.upperBound)
  }

  /// A task per event, as users write without the library (whose order the
  /// language does not promise).
  package func sendThroughTasks(_ events: Range<Int>) async {
    await Task.detached { [screens] in
      for value in events {
        Task { @MainActor in
          for screen in screens { screen.tick(value) }
        }
      }
    }.value
    await screens.last!.waitUntilTicked(events.upperBound)
  }

  /// An `AsyncStream` drained by one main-actor task.
  package func sendThroughStream(_ events: Range<Int>) async {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let pump = Task { @MainActor [screens] in
      for await value in stream {
        for screen in screens { screen.tick(value) }
      }
    }
    await Task.detached {
      for value in events { continuation.yield(value) }
      continuation.finish()
    }.value
    await pump.value
  }
}

/// A queue of broadcasts for main-actor observers, written by hand: the
/// floor a hop to the main actor is measured against.
final class HandWrittenHop: Sendable {
  typealias Body = @MainActor @Sendable (any MainActorTickObserver) -> Void

  /// A weak reference to a screen.
  private final class Cell: Sendable {
    weak let screen: Screen?
    init(_ screen: Screen) { self.screen = screen }
  }

  private struct State {
    var waiting: [Body] = []
    var isScheduled = false
  }

  private let cells: [Cell]
  private let state = Mutex(State())

  @MainActor
  init(_ screens: [Screen]) {
    cells = screens.map(Cell.init)
  }

  /// Queues `body` and schedules a drain if none is.
  func send(_ body: @escaping Body) {
    let schedule = state.withLock { state in
      state.waiting.append(body)
      defer { state.isScheduled = true }
      return !state.isScheduled
    }
    if schedule { Task { @MainActor in self.drain() } }
  }

  @MainActor
  private func drain() {
    var bodies: [Body] = []
    while true {
      let isEmpty = state.withLock { state in
        swap(&bodies, &state.waiting)
        if bodies.isEmpty { state.isScheduled = false }
        return bodies.isEmpty
      }
      if isEmpty { return }
      for body in bodies {
        for cell in cells {
          if let screen = cell.screen { body(screen) }
        }
      }
      bodies.removeAll(keepingCapacity: true)
    }
  }
}
