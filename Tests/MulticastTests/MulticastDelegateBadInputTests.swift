// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// A protocol that is not class-bound, so value types can conform.
protocol Announcing {
  func announce()
}

struct ValueAnnouncer: Announcing {
  func announce() {}
}

final class ClassAnnouncer: Announcing {
  var announcements = 0
  func announce() { announcements += 1 }
}

@Suite("Bad input")
struct MulticastDelegateBadInputTests {
  @Test("Adding a value that is not a class instance stops with a message naming its type")
  func valueObserverTraps() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      MulticastDelegate<any Announcing>().addObserver(ValueAnnouncer())
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("cannot hold a value of type ValueAnnouncer"))
    #expect(message.contains("MulticastDelegate<Announcing>"))
  }

  @Test(
    "A value that is not a class instance is never registered: removing it does nothing, and it is not contained",
    arguments: Path.allCases)
  func valueRemovalDoesNothing(path: Path) {
    let delegate = path.make((any Announcing).self)
    let announcer = ClassAnnouncer()
    delegate.addObserver(announcer)
    delegate.removeObserver(ValueAnnouncer())
    #expect(!delegate.contains(ValueAnnouncer()))
    #expect(delegate.contains(announcer))
    delegate { $0.announce() }
    #expect(announcer.announcements == 1)
  }

  @Test(
    "Class instances of a protocol that is not class-bound are observed", arguments: Path.allCases)
  func classInstancesOfOpenProtocol(path: Path) {
    let delegate = path.make((any Announcing).self)
    let announcer = ClassAnnouncer()
    delegate.addObserver(announcer)
    delegate { $0.announce() }
    #expect(announcer.announcements == 1)
    #expect(delegate.contains(announcer))
  }
}
