// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

protocol Resting: AnyObject {
  func rest()
}

final class Sleeper: Pinging, Resting {
  var pings = 0
  var rests = 0
  func ping() { pings += 1 }
  func rest() { rests += 1 }
}

class BaseObserver: Pinging {
  var pings = 0
  func ping() { pings += 1 }
}

final class DerivedObserver: BaseObserver {}

@Suite("Rebuilding observers without a cast")
struct MulticastDelegateRebuildingTests {
  private func usesRebuilding<Observer>(
    _ delegate: MulticastDelegate<Observer>, _ observer: Observer
  ) -> Bool {
    delegate.witnessTable(for: observer, object: observer as AnyObject) != .needsCast
  }

  @Test("An existential of one class-bound protocol is rebuilt from its witness table")
  func singleProtocolIsRebuilt() {
    let delegate = MulticastDelegate<any Pinging>()
    let sleeper = Sleeper()
    #expect(usesRebuilding(delegate, sleeper))
    delegate.addObserver(sleeper)
    delegate { $0.ping() }
    #expect(sleeper.pings == 1)
  }

  @Test("A class type is rebuilt from its reference alone, subclasses included")
  func classTypeIsRebuilt() {
    let delegate = MulticastDelegate<BaseObserver>()
    let (base, derived) = (BaseObserver(), DerivedObserver())
    #expect(usesRebuilding(delegate, derived))
    delegate.addObserver(base)
    delegate.addObserver(derived)
    delegate { $0.ping() }
    #expect(base.pings == 1 && derived.pings == 1)
  }

  @Test("AnyObject observers are rebuilt from their reference alone")
  func anyObjectIsRebuilt() {
    let delegate = MulticastDelegate<AnyObject>()
    let sleeper = Sleeper()
    #expect(usesRebuilding(delegate, sleeper))
    delegate.addObserver(sleeper)
    var seen: [ObjectIdentifier] = []
    delegate { seen.append(ObjectIdentifier($0)) }
    #expect(seen == [ObjectIdentifier(sleeper)])
  }

  @Test("A composition of protocols falls back to a dynamic cast and still works")
  func compositionFallsBack() {
    let delegate = MulticastDelegate<any Pinging & Resting>()
    let sleeper = Sleeper()
    #expect(!usesRebuilding(delegate, sleeper))
    delegate.addObserver(sleeper)
    delegate {
      $0.ping()
      $0.rest()
    }
    #expect(sleeper.pings == 1 && sleeper.rests == 1)
  }

  @Test("A protocol that is not class-bound falls back to a dynamic cast")
  func openProtocolFallsBack() {
    let delegate = MulticastDelegate<any Announcing>()
    #expect(!usesRebuilding(delegate, ClassAnnouncer()))
  }

  @Test("Turning rebuilding off makes every observer use the dynamic cast")
  func rebuildingCanBeTurnedOff() {
    let delegate = Path.dynamicCast.make((any Pinging).self)
    #expect(!usesRebuilding(delegate, Sleeper()))
  }
}
