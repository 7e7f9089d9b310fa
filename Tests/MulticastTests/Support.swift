// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// The observer protocol the contract tests use: class-bound, with a default
/// empty method, as the library's users write theirs.
protocol Pinging: AnyObject {
  func ping()
}

extension Pinging {
  func ping() {}
}

/// An ordered record of what happened during a test.
final class Log {
  private(set) var entries: [String] = []
  func append(_ entry: String) { entries.append(entry) }
  func reset() { entries = [] }
}

/// An observer that records its pings and can act when pinged.
final class Probe: Pinging {
  let name: String
  let log: Log
  var onPing: ((Probe) -> Void)?

  init(_ name: String, log: Log, onPing: ((Probe) -> Void)? = nil) {
    self.name = name
    self.log = log
    self.onPing = onPing
  }

  func ping() {
    log.append(name)
    onPing?(self)
  }
}

/// A second observer class, so that calls through the protocol stay dynamic.
final class OtherProbe: Pinging {
  let name: String
  let log: Log

  init(_ name: String, log: Log) {
    self.name = name
    self.log = log
  }

  func ping() { log.append(name) }
}

/// An observer that implements nothing: the default empty method runs.
final class Silent: Pinging {}

/// How a multicast delegate turns a stored object back into an observer.
///
/// Every contract test runs on both paths.
enum Path: CaseIterable, CustomTestStringConvertible {
  case rebuilding, dynamicCast

  var testDescription: String { self == .rebuilding ? "rebuilding" : "dynamic cast" }

  func make<Observer>(_: Observer.Type = Observer.self) -> MulticastDelegate<Observer> {
    MulticastDelegate(rebuildingObservers: self == .rebuilding)
  }
}

/// Counts live instances, to prove that objects are released.
final class LifetimeTracker {
  private(set) var created = 0
  private(set) var released = 0
  var live: Int { created - released }

  /// A tracked object: the tracker counts its birth and its death.
  final class Instance: Pinging {
    let tracker: LifetimeTracker
    init(_ tracker: LifetimeTracker) {
      self.tracker = tracker
      tracker.created += 1
    }
    deinit { tracker.released += 1 }
  }

  func instance() -> Instance { Instance(self) }
}

extension MulticastDelegate where Observer == any Pinging {
  /// Broadcasts a ping and returns the log's entries, then clears the log.
  func pingAll(_ log: Log) -> [String] {
    log.reset()
    self { $0.ping() }
    defer { log.reset() }
    return log.entries
  }
}
