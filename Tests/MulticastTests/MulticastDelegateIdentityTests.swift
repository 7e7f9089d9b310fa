import Testing

@testable import Multicast

@Suite("Identity")
struct MulticastDelegateIdentityTests {
  /// Allocates and drops observers until one lands at `address`, or gives up.
  private func observer(at address: ObjectIdentifier, log: Log) -> Probe? {
    for attempt in 0..<10_000 {
      let candidate = Probe("new \(attempt)", log: log)
      if ObjectIdentifier(candidate) == address { return candidate }
    }
    return nil
  }

  @Test("A new object at a dead observer's address is a new observer", arguments: Path.allCases)
  func addressReuseMakesANewObserver(path: Path) throws {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    let first = Probe("first", log: log)
    delegate.addObserver(first)
    var dead: Probe? = Probe("dead", log: log)
    delegate.addObserver(dead!)
    let address = ObjectIdentifier(dead!)
    let last = Probe("last", log: log)
    delegate.addObserver(last)
    dead = nil

    let reborn = try #require(
      observer(at: address, log: log), "the allocator never reused the address")
    #expect(ObjectIdentifier(reborn) == address)  // the reuse really happened
    #expect(!delegate.contains(reborn))
    #expect(delegate.count == 2)
    #expect(delegate.pingAll(log) == ["first", "last"])

    delegate.addObserver(reborn)
    delegate.checkInvariants()
    #expect(delegate.contains(reborn))
    #expect(delegate.count == 3)
    #expect(delegate.pingAll(log) == ["first", "last", reborn.name])
  }

  @Test(
    "Removing a new object at a dead observer's address leaves others alone",
    arguments: Path.allCases)
  func removingAtReusedAddress(path: Path) throws {
    let log = Log()
    let delegate = path.make((any Pinging).self)
    var dead: Probe? = Probe("dead", log: log)
    delegate.addObserver(dead!)
    let address = ObjectIdentifier(dead!)
    let other = Probe("other", log: log)
    delegate.addObserver(other)
    dead = nil
    let reborn = try #require(
      observer(at: address, log: log), "the allocator never reused the address")
    delegate.removeObserver(reborn)
    delegate.checkInvariants()
    #expect(delegate.count == 1)
    #expect(delegate.pingAll(log) == ["other"])
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
