// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

@Suite("Identity")
struct MulticastDelegateIdentityTests {
  /// Registers an observer, lets it die, and returns a new object allocated
  /// at its address, or `nil` if the allocator never reused it.
  ///
  /// Each attempt keeps its candidates alive, so that every allocation takes
  /// a fresh chunk until the dead observer's is handed out; another thread
  /// may take that chunk first, so the whole scenario is tried again.
  private func observerAtDeadAddress(
    in delegate: MulticastDelegate<any Pinging>, log: Log
  ) -> Probe? {
    for _ in 0..<50 {
      var dead: Probe? = Probe("dead", log: log)
      delegate.addObserver(dead!)
      let address = ObjectIdentifier(dead!)
      dead = nil
      var candidates: [Probe] = []
      for attempt in 0..<2_000 {
        let candidate = Probe("new \(attempt)", log: log)
        if ObjectIdentifier(candidate) == address { return candidate }
        candidates.append(candidate)
      }
    }
    return nil
  }

  @Test("A new object at a dead observer's address is a new observer", arguments: Path.allCases)
  func addressReuseMakesANewObserver(path: Path) throws {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let first = Probe("first", log: log)
    delegate.addObserver(first)
    let reborn = try #require(
      observerAtDeadAddress(in: delegate, log: log), "the allocator never reused an address")
    let last = Probe("last", log: log)
    delegate.addObserver(last)

    // The reuse really happened: a dead registration is filed under this address.
    #expect(delegate.hasRegistration(forKey: ObjectIdentifier(reborn)))
    #expect(!delegate.contains(reborn))
    #expect(delegate.count == 2)
    #expect(delegate.pingAll(log) == ["first", "last"])

    delegate.addObserver(reborn)
    delegate.checkInvariants()
    #expect(delegate.contains(reborn))
    #expect(delegate.count == 3)
    #expect(delegate.pingAll(log) == ["first", "last", reborn.name])
    withExtendedLifetime((first, last)) {}
  }

  @Test(
    "Removing a new object at a dead observer's address leaves others alone",
    arguments: Path.allCases)
  func removingAtReusedAddress(path: Path) throws {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let other = Probe("other", log: log)
    delegate.addObserver(other)
    let reborn = try #require(
      observerAtDeadAddress(in: delegate, log: log), "the allocator never reused an address")
    #expect(delegate.hasRegistration(forKey: ObjectIdentifier(reborn)))
    delegate.removeObserver(reborn)
    delegate.checkInvariants()
    #expect(delegate.count == 1)
    #expect(delegate.pingAll(log) == ["other"])
    withExtendedLifetime(other) {}
  }

  @Test("Observers are compared by identity, not equality")
  func identityNotEquality() {
    final class Twin: Pinging, Equatable {
      static func == (lhs: Twin, rhs: Twin) -> Bool { true }
    }
    let delegate = MulticastDelegate<any Pinging>()
    let (a, b) = (Twin(), Twin())
    delegate.addObserver(a)
    #expect(!delegate.contains(b))
    delegate.addObserver(b)
    #expect(delegate.count == 2)
    delegate.removeObserver(b)
    #expect(delegate.contains(a))
  }
}
