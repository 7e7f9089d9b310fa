// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

#if canImport(Observation)
import Observation
import Testing

@testable import Multicast

/// A model whose computed property reads an observable value, as a view
/// model offering a player's volume to a view would.
@Observable
final class VolumeModel {
  @ObservationIgnored let volume: ObservableValue<Double>
  var title = "Volume"

  init(volume: ObservableValue<Double>) {
    self.volume = volume
  }

  /// The volume, in percent.
  var percent: Int { Int((volume.value * 100).rounded()) }
}

/// Counts the changes that a tracking scope was told of.
private func track<T>(_ read: () -> T) -> Locked<Int> {
  let changes = Locked(0)
  _ = withObservationTracking(read) { changes.withLock { $0 += 1 } }
  return changes
}

@Suite("Observation: reading an observable value is tracked")
struct ObservationTests {
  @Test("A value read directly: an assignment tells the tracking, once")
  func readDirectly() {
    let volume = ObservableValue(0.5)
    let changes = track { volume.value }
    #expect(changes.withLock { $0 } == 0)
    volume.value = 0.7
    #expect(changes.withLock { $0 } == 1, "told before the assignment returned")
    volume.value = 0.8
    #expect(changes.withLock { $0 } == 1, "a tracking scope is told once")
  }

  @Test("set(_:) tells the tracking as assigning does")
  func set() {
    let volume = ObservableValue(1)
    let changes = track { volume.value }
    volume.set(2)
    #expect(changes.withLock { $0 } == 1)
  }

  @Test("A value read through an @Observable model's computed property")
  func throughAModel() {
    let model = VolumeModel(volume: ObservableValue(0.25))
    let changes = track { model.percent }
    volume(of: model).value = 0.5
    #expect(changes.withLock { $0 } == 1)
    #expect(model.percent == 50)
  }

  @Test("A change to a value that was not read tells nothing")
  func unreadValue() {
    let read = ObservableValue("read")
    let unread = ObservableValue("unread")
    let changes = track { read.value }
    unread.value = "changed"
    _ = unread.value
    #expect(changes.withLock { $0 } == 0)
    read.value = "changed"
    #expect(changes.withLock { $0 } == 1)
  }

  @Test("Observing with closures is not a read: it is not tracked")
  func subscribingIsNotReading() {
    let volume = ObservableValue(0)
    var subscription: EventSubscription?
    let subscribing = track { subscription = volume.observe { _, _ in } }
    let reading = track { volume.value }
    volume.value = 1
    #expect(subscribing.withLock { $0 } == 0)
    #expect(reading.withLock { $0 } == 1, "the same assignment tells a read")
    withExtendedLifetime(subscription) {}
  }

  @Test("The readers are told once the new value is stored, before the observers hear it")
  func orderOfATelling() {
    let volume = ObservableValue(0)
    let log = Locked<[String]>([])
    let subscription = volume.observe { _, new in log.withLock { $0.append("heard \(new)") } }
    withObservationTracking {
      _ = volume.value
    } onChange: {
      log.withLock { $0.append("told, reading \(volume.value)") }
    }
    volume.value = 1
    #expect(log.withLock { $0 } == ["told, reading 1", "heard 1"])
    withExtendedLifetime(subscription) {}
  }

  @Test("A change made while the readers are told is heard after the one that told them")
  func assigningWhileTelling() {
    let level = ObservableValue(0)
    let heard = Locked<[Int]>([])
    let subscription = level.observe { _, new in heard.withLock { $0.append(new) } }
    // Observation tells a tracking until its `onChange` returns, so the
    // change made there tells it again: it assigns only the first time.
    let assigned = Locked(false)
    withObservationTracking {
      _ = level.value
    } onChange: {
      if !assigned.withLock({ $0 }) {
        assigned.withLock { $0 = true }
        level.value = 2
      }
    }
    level.value = 1
    #expect(heard.withLock { $0 } == [1, 2])
    #expect(level.value == 2)
    withExtendedLifetime(subscription) {}
  }

  @Test("Assignments from another thread and from an actor tell the tracking")
  func otherIsolations() async {
    let volume = ObservableValue(0)
    let fromThread = track { volume.value }
    await onNewThread { volume.value = 1 }
    #expect(fromThread.withLock { $0 } == 1)
    let fromActor = track { volume.value }
    await Assigner().assign(2, to: volume)
    #expect(fromActor.withLock { $0 } == 1)
  }

  @Test("Many tracking scopes, two threads assigning and tracking at once: no scope is missed")
  func manyScopesManyThreads() async {
    let (scopes, assignments) = (500, 2_000)
    let level = ObservableValue(0)
    let counts = (0..<scopes).map { _ in track { level.value } }
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<2 {
        group.addTask {
          await onNewThread {
            for value in 0..<assignments {
              if value.isMultiple(of: 2) == (thread == 0) {
                level.value = value
              } else {
                _ = track { level.value }
              }
            }
          }
        }
      }
    }
    // None may be missed. How many times a scope is told when assignments
    // race is Observation's business, not the value's: a scope ends after
    // its first change is told, so two threads may both tell it, and one CI
    // run saw a scope told on every later assignment.
    let told = counts.map { $0.withLock { $0 } }
    #expect(told.allSatisfy { $0 >= 1 }, "told \(Set(told)) times")
  }
}

/// The model's value, for the test to assign.
private func volume(of model: VolumeModel) -> ObservableValue<Double> { model.volume }

/// An actor that assigns values.
private actor Assigner {
  func assign(_ value: Int, to observable: ObservableValue<Int>) {
    observable.set(value)
  }
}
#endif
