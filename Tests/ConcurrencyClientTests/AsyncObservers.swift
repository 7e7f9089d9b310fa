// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

// The README's "Async observer methods", as a user writes it, in a target
// without NonisolatedNonsendingByDefault: a @MainActor protocol with an
// async method, broadcast with awaitEach.

@MainActor
protocol DocumentObserver: AnyObject {
  func documentWillClose(_ document: Document) async
}

@MainActor
final class Document {
  private let observers = MulticastDelegate<any DocumentObserver>()

  func addObserver(_ observer: any DocumentObserver) { observers.addObserver(observer) }
  func removeObserver(_ observer: any DocumentObserver) { observers.removeObserver(observer) }

  func close() async throws {
    try await observers.awaitEach { await $0.documentWillClose(self) }
  }
}

/// Saves its part of the document when it closes, suspending meanwhile.
@MainActor
final class DocumentPart: DocumentObserver {
  let name: String
  let log: CallLog

  init(_ name: String, log: CallLog) {
    self.name = name
    self.log = log
  }

  func documentWillClose(_ document: Document) async {
    MainActor.preconditionIsolated()
    log.calls.append("\(name) saving")
    await Task.yield()
    log.calls.append("\(name) saved")
  }
}
