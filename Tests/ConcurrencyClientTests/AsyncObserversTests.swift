// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

@Suite("Async observer methods, awaited in turn")
@MainActor
struct AsyncObserversTests {
  @Test("Each part saves before the next begins, in registration order")
  func inTurn() async throws {
    let log = CallLog()
    let document = Document()
    let parts = ["text", "images"].map { DocumentPart($0, log: log) }
    for part in parts { document.addObserver(part) }
    try await document.close()
    #expect(log.calls == ["text saving", "text saved", "images saving", "images saved"])
    withExtendedLifetime(parts) {}  // observers are weak: keep them to the end
  }

  @Test("A removed part is not awaited")
  func removal() async throws {
    let log = CallLog()
    let document = Document()
    let (kept, removed) = (DocumentPart("kept", log: log), DocumentPart("removed", log: log))
    document.addObserver(kept)
    document.addObserver(removed)
    document.removeObserver(removed)
    try await document.close()
    #expect(log.calls == ["kept saving", "kept saved"])
    withExtendedLifetime((kept, removed)) {}
  }
}
