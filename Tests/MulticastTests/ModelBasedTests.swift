// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Model-based random testing: seeded sequences of operations run against the
// real types and against a deliberately simple model of the contract, an
// ordered list of registrations. Calls, count and membership must agree after
// every step.
//
// Replay one seed:   MULTICAST_SEED=12345 swift test --filter ModelBased
// More seeds:        MULTICAST_MODEL_SEEDS=2000 swift test --filter ModelBased

/// What an observer does when it is called during a broadcast.
enum Reaction: Equatable, CustomStringConvertible {
  case add(slot: Int)
  case remove(slot: Int)
  case drop(slot: Int)
  case nestedBroadcast

  var description: String {
    switch self {
    case .add(let slot): "add \(slot)"
    case .remove(let slot): "remove \(slot)"
    case .drop(let slot): "drop \(slot)"
    case .nestedBroadcast: "nested broadcast"
    }
  }
}

/// One step of a test sequence.
///
/// Slots hold at most one live object each.
enum Operation: Equatable, CustomStringConvertible {
  /// Register the slot's object, making one if the slot is empty.
  case add(slot: Int)
  case remove(slot: Int)
  /// Let go of the slot's object: it dies, registered or not.
  case drop(slot: Int)
  /// Broadcast; the observer in each slot of `reactions` reacts when called.
  case broadcast(reactions: [Int: Reaction])

  var description: String {
    switch self {
    case .add(let slot): "add \(slot)"
    case .remove(let slot): "remove \(slot)"
    case .drop(let slot): "drop \(slot)"
    case .broadcast(let reactions):
      "broadcast"
        + (reactions.isEmpty
          ? ""
          : " " + reactions.sorted { $0.key < $1.key }.map { "[\($0.key): \($0.value)]" }.joined())
    }
  }
}

/// The faces the model checks.
enum Face: CaseIterable, CustomTestStringConvertible {
  case multicastRebuilding, multicastDynamicCast, eventTargets

  var testDescription: String {
    switch self {
    case .multicastRebuilding: "MulticastDelegate, rebuilding"
    case .multicastDynamicCast: "MulticastDelegate, dynamic cast"
    case .eventTargets: "Event, target subscriptions"
    }
  }

  /// Whether adding a registered observer again is ignored (multicast) or
  /// makes a second registration (events).
  var deduplicates: Bool { self != .eventTargets }
}

// MARK: The model

/// The contract in its plainest form.
struct Model {
  struct Registration {
    let id: Int
    let token: Int
  }

  let deduplicates: Bool
  var registrations: [Registration] = []
  var removedTokens: Set<Int> = []
  var slots: [Int?]
  var alive: Set<Int> = []
  var nextID = 0
  var nextToken = 0
  var calls: [Int] = []

  init(slots: Int, deduplicates: Bool) {
    self.slots = Array(repeating: nil, count: slots)
    self.deduplicates = deduplicates
  }

  var live: [Registration] { registrations.filter { alive.contains($0.id) } }

  mutating func object(in slot: Int) -> Int {
    if let id = slots[slot] { return id }
    let id = nextID
    nextID += 1
    slots[slot] = id
    alive.insert(id)
    return id
  }

  mutating func add(slot: Int) {
    let id = object(in: slot)
    if deduplicates && registrations.contains(where: { $0.id == id }) { return }
    registrations.append(Registration(id: id, token: nextToken))
    nextToken += 1
  }

  mutating func remove(slot: Int) {
    guard let id = slots[slot] else { return }
    for registration in registrations where registration.id == id {
      removedTokens.insert(registration.token)
    }
    registrations.removeAll { $0.id == id }
  }

  mutating func drop(slot: Int) {
    guard let id = slots[slot] else { return }
    slots[slot] = nil
    alive.remove(id)
    registrations.removeAll { $0.id == id }
  }

  /// Broadcasts: a nested broadcast (a reaction) runs at once, inside this
  /// one, when `queuesNested` is false (the protocol face, depth-first like
  /// method calls); otherwise it waits until this one has finished, and then
  /// reaches the registrations made before it was sent (the events' send
  /// order).
  mutating func broadcast(_ reactions: [Int: Reaction], queuesNested: Bool) {
    var fired: Set<Int> = []
    var queued: [Int] = []
    broadcast(reactions, depth: 0, end: nextToken, fired: &fired) { end in
      if queuesNested { queued.append(end) }
      return queuesNested
    }
    for end in queued {
      broadcast(reactions, depth: 1, end: end, fired: &fired) { _ in true }
    }
  }

  private mutating func broadcast(
    _ reactions: [Int: Reaction], depth: Int, end: Int, fired: inout Set<Int>,
    queue: (_ end: Int) -> Bool
  ) {
    let snapshot = live.filter { $0.token < end }
    for registration in snapshot {
      guard !removedTokens.contains(registration.token), alive.contains(registration.id) else {
        continue
      }
      calls.append(registration.id)
      guard depth == 0, let slot = slots.firstIndex(of: registration.id),
        let reaction = reactions[slot], fired.insert(slot).inserted
      else { continue }
      switch reaction {
      case .add(let slot): add(slot: slot)
      case .remove(let slot): remove(slot: slot)
      case .drop(let slot): drop(slot: slot)
      case .nestedBroadcast:
        if !queue(nextToken) {
          broadcast(reactions, depth: depth + 1, end: nextToken, fired: &fired) { _ in false }
        }
      }
    }
  }
}

// MARK: The real thing

protocol ModelObserving: AnyObject {
  func ping()
}

final class ModelObserver: ModelObserving {
  let id: Int
  unowned let harness: Harness
  init(id: Int, harness: Harness) {
    self.id = id
    self.harness = harness
  }
  func ping() { harness.called(self, depth: harness.depth) }
}

/// Drives one face with the same operations as the model.
final class Harness {
  let face: Face
  let multicast: MulticastDelegate<any ModelObserving>
  /// Sends the depth of its send: a nested send is delivered after the
  /// outer one, when the harness's own depth is back to zero.
  let sender = EventSender<Int>()
  var slots: [ModelObserver?]
  var nextID = 0
  var calls: [Int] = []
  var reactions: [Int: Reaction] = [:]
  var depth = 0
  var fired: Set<Int> = []

  init(face: Face, slots: Int) {
    self.face = face
    self.multicast = MulticastDelegate(rebuildingObservers: face != .multicastDynamicCast)
    self.slots = Array(repeating: nil, count: slots)
  }

  func object(in slot: Int) -> ModelObserver {
    if let object = slots[slot] { return object }
    let object = ModelObserver(id: nextID, harness: self)
    nextID += 1
    slots[slot] = object
    return object
  }

  func add(slot: Int) {
    let observer = object(in: slot)
    switch face {
    case .multicastRebuilding, .multicastDynamicCast: multicast.addObserver(observer)
    case .eventTargets:
      sender.event.observe(observer) { observer, depth in
        observer.harness.called(observer, depth: depth)
      }
    }
  }

  func remove(slot: Int) {
    guard let observer = slots[slot] else { return }
    switch face {
    case .multicastRebuilding, .multicastDynamicCast: multicast.removeObserver(observer)
    case .eventTargets: sender.event.removeObservers(observer)
    }
  }

  func drop(slot: Int) { slots[slot] = nil }

  func broadcast() {
    switch face {
    case .multicastRebuilding, .multicastDynamicCast: multicast { $0.ping() }
    case .eventTargets: sender.send(depth)
    }
  }

  func called(_ observer: ModelObserver, depth: Int) {
    calls.append(observer.id)
    guard depth == 0, let slot = slots.firstIndex(where: { $0 === observer }),
      let reaction = reactions[slot], fired.insert(slot).inserted
    else { return }
    switch reaction {
    case .add(let slot): add(slot: slot)
    case .remove(let slot): remove(slot: slot)
    case .drop(let slot): drop(slot: slot)
    case .nestedBroadcast:
      self.depth += 1
      broadcast()
      self.depth -= 1
    }
  }

  var count: Int {
    switch face {
    case .multicastRebuilding, .multicastDynamicCast: multicast.count
    case .eventTargets: sender.liveCount
    }
  }

  func checkInvariants() {
    switch face {
    case .multicastRebuilding, .multicastDynamicCast: multicast.checkInvariants()
    case .eventTargets: sender.checkInvariants()
    }
  }
}

// MARK: Running and shrinking

/// Runs `operations` on the model and on `face`; returns the first
/// disagreement, or `nil`.
func firstDisagreement(_ operations: [Operation], face: Face, slots: Int) -> String? {
  var model = Model(slots: slots, deduplicates: face.deduplicates)
  let real = Harness(face: face, slots: slots)
  for (step, operation) in operations.enumerated() {
    model.calls = []
    real.calls = []
    switch operation {
    case .add(let slot):
      model.add(slot: slot)
      real.add(slot: slot)
    case .remove(let slot):
      model.remove(slot: slot)
      real.remove(slot: slot)
    case .drop(let slot):
      model.drop(slot: slot)
      real.drop(slot: slot)
    case .broadcast(let reactions):
      model.broadcast(reactions, queuesNested: face == .eventTargets)
      real.reactions = reactions
      real.fired = []
      real.broadcast()
    }
    real.checkInvariants()
    if model.calls != real.calls {
      return "step \(step) (\(operation)): calls \(real.calls), model says \(model.calls)"
    }
    if model.live.count != real.count {
      return "step \(step) (\(operation)): count \(real.count), model says \(model.live.count)"
    }
    if face.deduplicates {
      for slot in 0..<slots {
        guard let observer = real.slots[slot] else { continue }
        let expected = model.live.contains { $0.id == model.slots[slot] }
        if real.multicast.contains(observer) != expected {
          return "step \(step) (\(operation)): contains(slot \(slot)) is \(!expected)"
        }
      }
    }
  }
  return nil
}

func operations(seed: UInt64, count: Int, slots: Int) -> [Operation] {
  var random = SplitMix64(state: seed)
  func slot() -> Int { Int(random.next() % UInt64(slots)) }
  return (0..<count).map { _ in
    switch random.next() % 10 {
    case 0, 1, 2: return .add(slot: slot())
    case 3: return .remove(slot: slot())
    case 4: return .drop(slot: slot())
    default:
      var reactions: [Int: Reaction] = [:]
      for _ in 0..<Int(random.next() % 4) {
        let reaction: Reaction =
          switch random.next() % 4 {
          case 0: .add(slot: slot())
          case 1: .remove(slot: slot())
          case 2: .drop(slot: slot())
          default: .nestedBroadcast
          }
        reactions[slot()] = reaction
      }
      return .broadcast(reactions: reactions)
    }
  }
}

/// Removes operations while the failure persists, to show a short sequence.
func shrink(_ operations: [Operation], face: Face, slots: Int) -> [Operation] {
  var current = operations
  var chunk = max(1, current.count / 2)
  while chunk >= 1 {
    var start = 0
    var removedAny = false
    while start < current.count {
      var candidate = current
      candidate.removeSubrange(start..<min(start + chunk, candidate.count))
      if firstDisagreement(candidate, face: face, slots: slots) != nil {
        current = candidate
        removedAny = true
      } else {
        start += chunk
      }
    }
    if !removedAny { chunk /= 2 }
  }
  return current
}

func environmentValue(_ name: String) -> String? {
  guard let value = getenv(name) else { return nil }
  return String(cString: value)
}

@Suite("Model-based random runs")
struct ModelBasedTests {
  static let slots = 6
  static let operationsPerSeed = 300

  @Test("Random sequences agree with the model of the contract", arguments: Face.allCases)
  func randomSequences(face: Face) {
    let seeds: [UInt64] =
      if let seed = environmentValue("MULTICAST_SEED").flatMap(UInt64.init) {
        [seed]
      } else {
        Array(1...UInt64(environmentValue("MULTICAST_MODEL_SEEDS").flatMap(Int.init) ?? 120))
      }
    var operationsRun = 0
    for seed in seeds {
      let sequence = operations(seed: seed, count: Self.operationsPerSeed, slots: Self.slots)
      operationsRun += sequence.count
      guard let disagreement = firstDisagreement(sequence, face: face, slots: Self.slots) else {
        continue
      }
      let shrunk = shrink(sequence, face: face, slots: Self.slots)
      Issue.record(
        """
        seed \(seed) (replay with MULTICAST_SEED=\(seed)): \(disagreement)
        shrunk to \(shrunk.count) operations: \(shrunk.map(\.description).joined(separator: "; "))
        \(firstDisagreement(shrunk, face: face, slots: Self.slots) ?? "")
        """)
      return
    }
    #expect(operationsRun >= seeds.count * Self.operationsPerSeed)
  }

  @Test("The model itself skips an observer removed before its turn")
  func modelDetectsBugs() {
    // The model, like the contract, does not call an observer removed during a
    // broadcast before its turn, and the real type agrees.
    let sequence: [Operation] = [
      .add(slot: 0), .add(slot: 1), .broadcast(reactions: [0: .remove(slot: 1)]),
    ]
    #expect(firstDisagreement(sequence, face: .multicastRebuilding, slots: 2) == nil)
    var model = Model(slots: 2, deduplicates: true)
    model.add(slot: 0)
    model.add(slot: 1)
    model.broadcast([0: .remove(slot: 1)], queuesNested: false)
    #expect(model.calls == [0])
  }
}
