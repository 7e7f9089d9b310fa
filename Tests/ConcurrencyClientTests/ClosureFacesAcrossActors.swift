// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

// A transfer that runs on an actor of its own and offers its progress as an
// event and its fraction done as an observable value, heard by a main-actor
// view model that keeps its subscriptions in a set.

/// How far a transfer has come.
struct TransferProgress: Equatable, Sendable {
  var received: Int
  var total: Int
}

actor FileTransfer {
  private let progressSender = EventSender<TransferProgress>()
  private var received = 0
  let total: Int

  /// Each chunk received, as it arrives.
  nonisolated var progress: Event<TransferProgress> { progressSender.event }
  /// The fraction done, from 0 to 1.
  nonisolated let fraction = ObservableValue(0.0)

  init(total: Int) {
    self.total = total
  }

  /// Takes `count` bytes; subscribers hear of it on their own actors.
  func receive(_ count: Int) {
    received += count
    progressSender.send(TransferProgress(received: received, total: total))
    fraction.set(Double(received) / Double(total))
  }
}

@MainActor
final class TransferViewModel {
  private(set) var lines: [String] = []
  private(set) var fractions: [Double] = []
  private var subscriptions: Set<EventSubscription> = []
  /// Yields each time the model hears of progress: for tests to wait on.
  let updates: AsyncStream<Void>
  private let updated: AsyncStream<Void>.Continuation

  init(transfer: FileTransfer) {
    (updates, updated) = AsyncStream.makeStream()
    transfer.progress.observe(self) { model, progress in
      model.lines.append("\(progress.received) of \(progress.total)")
      model.updated.yield()
    }.store(in: &subscriptions)
    transfer.fraction.observe(self) { model, _, new in model.fractions.append(new) }
      .store(in: &subscriptions)
  }

  /// Hears one more value of `event` with a closure that touches main-actor
  /// state, and returns its subscription.
  func follow(_ event: Event<TransferProgress>) -> EventSubscription {
    event.observe(self) { model, progress in model.lines.append("followed \(progress.received)") }
  }

  deinit {
    // A subscription is Sendable, so a nonisolated deinit may end them.
    for subscription in subscriptions { subscription.cancel() }
  }
}
