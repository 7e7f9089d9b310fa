// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

@Suite("Errors")
struct MulticastDelegateErrorTests {
  struct Refusal: Error, Equatable {
    let name: String
  }

  @Test("The first error stops the broadcast and is rethrown", arguments: Path.allCases)
  func firstErrorStops(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let observers = ["a", "b", "c", "d"].map { Probe($0, log: log) }
    for observer in observers { delegate.addObserver(observer) }
    #expect(throws: Refusal(name: "b")) {
      try delegate.invoke { observer in
        let probe = observer as! Probe
        log.append(probe.name)
        if probe.name == "b" || probe.name == "c" { throw Refusal(name: probe.name) }
      }
    }
    #expect(log.entries == ["a", "b"])
    withExtendedLifetime(observers) {}
  }

  @Test("A broadcast after an error calls everyone again", arguments: Path.allCases)
  func broadcastAfterError(path: Path) {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let observers = ["a", "b"].map { Probe($0, log: log) }
    for observer in observers { delegate.addObserver(observer) }
    _ = try? delegate { _ in throw Refusal(name: "any") }
    let late = Probe("late", log: log)
    delegate.addObserver(late)  // the lock was released
    delegate { $0.ping() }
    #expect(log.entries == ["a", "b", "late"])
    withExtendedLifetime((observers, late)) {}
  }
}
