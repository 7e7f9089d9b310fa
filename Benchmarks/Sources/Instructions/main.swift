// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// Runs one operation a given number of times, for an instruction count:
//
//   Instructions CASE REPETITIONS
//   Instructions --list
//
// Scripts/instructions.sh runs each case under callgrind with K and 2K
// repetitions and reports the difference over K: the instructions of one
// operation, with the set-up counted out. Top-level code runs on the main
// thread, which the runtime counts as the main actor's.

import Designs
import Foundation
import Multicast
import Observation
import OpenCombine
import Synchronization

/// The observers of these counts, as `Designs`' `Accumulator` and `Counter`
/// are, but their `tick` makes no run-time exclusivity check (those check
/// each access to their property, about 65 instructions a call), so that a
/// count is the design's own work, and the floor's.
final class QuietAccumulator: TickObserver {
  @exclusivity(unchecked) var total = 0

  func tick(_ value: Int) { total &+= value }
}

/// See ``QuietAccumulator``.
final class QuietCounter: TickObserver {
  @exclusivity(unchecked) var count = 0

  func tick(_ value: Int) { count &+= 1 }
}

/// `count` observers alternating between the two classes, so that calls
/// through the protocol stay dynamic.
func makeQuietObservers(_ count: Int) -> [any TickObserver] {
  (0..<count).map { $0.isMultiple(of: 2) ? QuietAccumulator() as any TickObserver : QuietCounter() }
}

/// Assigns `repetitions` values to a value observed on the main actor with
/// `policy`, from a new thread, while the main actor waits for it: nothing
/// is delivered meanwhile.
func assignWhileMainActorIsBusy(_ policy: DeliveryPolicy, repetitions: Int) {
  MainActor.assumeIsolated {
    let value = ObservableValue(0)
    let counter = QuietCounter()
    let subscription = value.observe(delivering: policy) { _, new in counter.tick(new) }
    let assigned = DispatchSemaphore(value: 0)
    Thread {
      for next in 0..<repetitions { value.value = next }
      assigned.signal()
    }.start()
    assigned.wait()
    consume((subscription, counter))
  }
}

/// Keeps the optimizer from dropping the work.
@inline(never)
func consume<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

let cases: [String: (Int) -> Void] = [
  // The floor: one weak reference loaded and called.
  "floor-1": { repetitions in
    let design = FloorDesign()
    let observers = makeQuietObservers(1)
    for observer in observers { design.add(observer) }
    for value in 0..<repetitions { design.broadcast(value) }
    consume(observers)
  },
  // The tight floor, ``LocalFloor``, walked by a loop the optimizer sees
  // whole. The floor above pays for a call into another module, a closure
  // and exclusivity checks.
  "floor-local-1": { localFloor(observers: 1, repetitions: $0) },
  "floor-local-10": { localFloor(observers: 10, repetitions: $0) },
  "broadcast-1": { broadcast(to: 1, repetitions: $0) },
  "broadcast-10": { broadcast(to: 10, repetitions: $0) },
  // The same as an app makes them: one call per broadcast, which the
  // optimizer cannot merge into this loop, so that nothing of a broadcast's
  // set-up is kept from one to the next; the tight floor called the same way.
  "broadcast-call-1": { broadcastByCalls(to: 1, repetitions: $0) },
  "broadcast-call-10": { broadcastByCalls(to: 10, repetitions: $0) },
  "floor-call-1": { floorByCalls(observers: 1, repetitions: $0) },
  "floor-call-10": { floorByCalls(observers: 10, repetitions: $0) },
  // An event's send to one closure subscription, both where no actor is.
  "event-send-1": { repetitions in
    let sender = EventSender<Int>()
    let counter = QuietCounter()
    let subscription = sender.event.observe { counter.tick($0) }
    for value in 0..<repetitions { sender.send(value) }
    consume((subscription, counter))
  },
  // The same on the main actor: subscribed and sent there.
  "event-send-1-main": { repetitions in
    MainActor.assumeIsolated {
      let sender = EventSender<Int>()
      let counter = QuietCounter()
      let subscription = sender.event.observe { counter.tick($0) }
      for value in 0..<repetitions { sender.send(value) }
      consume((subscription, counter))
    }
  },
  // Sent from nonisolated code running on the main actor, to a main-actor
  // subscription: the runtime is asked where the send runs.
  "event-send-1-main-unknown": { repetitions in
    let sender = EventSender<Int>()
    let counter = QuietCounter()
    let subscription = MainActor.assumeIsolated { sender.event.observe { counter.tick($0) } }
    for value in 0..<repetitions { sendWithoutIsolation(sender, value) }
    consume((subscription, counter))
  },
  // A mapped event: the send, its upstream delivery, the transform, and
  // the derived event's own send to one subscription.
  "event-map-1": { repetitions in
    let sender = EventSender<Int>()
    let counter = QuietCounter()
    let subscription = sender.event.map { $0 &+ 1 }.observe { counter.tick($0) }
    for value in 0..<repetitions { sender.send(value) }
    consume((subscription, counter))
  },
  // The same, subscribed and sent on the main actor.
  "event-map-1-main": { repetitions in
    MainActor.assumeIsolated {
      let sender = EventSender<Int>()
      let counter = QuietCounter()
      let subscription = sender.event.map { $0 &+ 1 }.observe { counter.tick($0) }
      for value in 0..<repetitions { sender.send(value) }
      consume((subscription, counter))
    }
  },
  "event-target-1": { repetitions in
    let sender = EventSender<Int>()
    let counter = QuietCounter()
    sender.event.observe(counter) { counter, value in counter.tick(value) }
    for value in 0..<repetitions { sender.send(value) }
    consume(counter)
  },
  "value-set-1": { repetitions in
    let value = ObservableValue(0)
    let counter = QuietCounter()
    let subscription = value.observe { _, new in counter.tick(new) }
    for next in 0..<repetitions { value.value = next }
    consume((subscription, counter))
  },
  // The same, of a value that was read once: its assignments tell
  // Observation's registrar, which its first read made.
  "value-set-1-read": { repetitions in
    let value = ObservableValue(0)
    let counter = QuietCounter()
    let subscription = value.observe { _, new in counter.tick(new) }
    counter.tick(value.value)
    for next in 0..<repetitions { value.value = next }
    consume((subscription, counter))
  },
  // Assignments from another thread while the main actor is busy, to a
  // value a main-actor view observes: with `.latest`, each replaces the one
  // change waiting there; with `.everyValue`, each queues one more.
  "value-set-1-latest-busy": { assignWhileMainActorIsBusy(.latest, repetitions: $0) },
  "value-set-1-every-busy": { assignWhileMainActorIsBusy(.everyValue, repetitions: $0) },
  // Reading a value, tracked by Observation (no tracking under way).
  "value-get": { repetitions in
    let value = ObservableValue(0)
    let counter = QuietCounter()
    for _ in 0..<repetitions { counter.tick(value.value) }
    consume(counter)
  },
  // The same two operations on an `@Observable` model's property, for
  // comparison: what taking part in Observation costs there.
  "observable-model-get": { repetitions in
    let model = ObservableModel()
    let counter = QuietCounter()
    for _ in 0..<repetitions { counter.tick(model.value) }
    consume((model, counter))
  },
  "observable-model-set": { repetitions in
    let model = ObservableModel()
    counterOfModel(model)
    for next in 0..<repetitions { model.value = next }
    consume(model)
  },
  "opencombine-send-1": { repetitions in
    let subject = PassthroughSubject<Int, Never>()
    let counter = QuietCounter()
    let cancellable = subject.sink { counter.tick($0) }
    for value in 0..<repetitions { subject.send(value) }
    consume((cancellable, counter))
  },
  // Subscribing and cancelling, with others subscribed: a closure that
  // captures an object weakly, as a view model's does.
  "subscribe-cancel-10": { subscribeAndCancel(present: 10, repetitions: $0) },
  "subscribe-cancel-1000": { subscribeAndCancel(present: 1_000, repetitions: $0) },
  // Each subscription cancelled after the next is made, so that it is never
  // the last registration: its entry leaves a tombstone, which compaction
  // clears.
  "subscribe-cancel-older-10": { repetitions in
    let (sender, counter, others) = eventWithSubscribers(10)
    var previous = sender.event.observe { [weak counter] in counter?.tick($0) }
    for _ in 0..<repetitions {
      let subscription = sender.event.observe { [weak counter] in counter?.tick($0) }
      previous.cancel()
      previous = subscription
    }
    consume((others, counter, previous))
  },
  // Ended by releasing the subscription rather than cancelling it.
  "subscribe-release-10": { repetitions in
    let (sender, counter, others) = eventWithSubscribers(10)
    for _ in 0..<repetitions {
      _ = sender.event.observe { [weak counter] in counter?.tick($0) }
    }
    consume((others, counter))
  },
  // The same on the main actor: subscribed, cancelled and sent there.
  "subscribe-cancel-main-10": { repetitions in
    MainActor.assumeIsolated {
      subscribeAndCancelOnMainActor(present: 10, repetitions: repetitions)
    }
  },
  // The target form, whose subscription lasts while its target lives,
  // cancelled early.
  "subscribe-cancel-target-10": { repetitions in
    let (sender, counter, others) = eventWithSubscribers(10)
    for _ in 0..<repetitions {
      let subscription = sender.event.observe(counter) { counter, value in counter.tick(value) }
      subscription.cancel()
    }
    consume((others, counter))
  },
  // The actor form, on an actor (entered once, from a task the main thread
  // waits for).
  "subscribe-cancel-actor-10": { repetitions in
    let done = DispatchSemaphore(value: 0)
    let actor = SubscribingActor()
    Task.detached {
      await actor.subscribeAndCancel(present: 10, repetitions: repetitions)
      done.signal()
    }
    done.wait()
  },
  // An observable value's actor form, on an actor.
  "value-observe-cancel-actor-10": { repetitions in
    let done = DispatchSemaphore(value: 0)
    let actor = SubscribingActor()
    Task.detached {
      await actor.observeValueAndCancel(present: 10, repetitions: repetitions)
      done.signal()
    }
    done.wait()
  },
  // An observable value's observer of old and new values.
  "value-observe-cancel-10": { repetitions in
    let value = ObservableValue(0)
    let counter = QuietCounter()
    let others = (0..<10).map { _ in value.observe { [weak counter] _, new in counter?.tick(new) } }
    for _ in 0..<repetitions {
      let subscription = value.observe { [weak counter] _, new in counter?.tick(new) }
      subscription.cancel()
    }
    consume((others, counter))
  },
  "opencombine-sink-cancel-10": { repetitions in
    let subject = PassthroughSubject<Int, Never>()
    let counter = QuietCounter()
    let others = (0..<10).map { _ in subject.sink { [weak counter] in counter?.tick($0) } }
    for _ in 0..<repetitions {
      let cancellable = subject.sink { [weak counter] in counter?.tick($0) }
      cancellable.cancel()
    }
    consume((others, counter))
  },
  "delegate-add-remove-1": { addAndRemove(present: 0, repetitions: $0) },
  "delegate-add-remove-10": { addAndRemove(present: 9, repetitions: $0) },
  "delegate-add-remove-100": { addAndRemove(present: 99, repetitions: $0) },
  "delegate-add-remove-100000": { addAndRemove(present: 99_999, repetitions: $0) },
  // The timed benchmark's shape: a new subject, 100 observers added, then
  // all removed (one operation here is the 200 of them).
  "delegate-fill-empty-100": { fillAndEmpty(observers: 100, repetitions: $0) },
  // The same with one observer: a new subject, one add, one remove.
  "delegate-fill-empty-1": { fillAndEmpty(observers: 1, repetitions: $0) },
  "delegate-fill-empty-10": { fillAndEmpty(observers: 10, repetitions: $0) },
  "dictionary-fill-empty-100": { fillAndEmptyDictionary(observers: 100, repetitions: $0) },
  "dictionary-fill-empty-1": { fillAndEmptyDictionary(observers: 1, repetitions: $0) },
  "dictionary-fill-empty-10": { fillAndEmptyDictionary(observers: 10, repetitions: $0) },

  // The same dictionary as a local variable of this module: no class, no
  // call into another module, no exclusivity check.
  "dictionary-local-add-remove-1": { repetitions in
    let observer = makeQuietObservers(1)[0]
    var observations: [ObjectIdentifier: WeakObservation] = [:]
    for _ in 0..<repetitions {
      observations[ObjectIdentifier(observer)] = WeakObservation(observer: observer)
      observations[ObjectIdentifier(observer)] = nil
    }
    consume((observations, observer))
  },
  "dictionary-add-remove-1": { addAndRemoveInDictionary(present: 0, repetitions: $0) },
  "dictionary-add-remove-10": { addAndRemoveInDictionary(present: 9, repetitions: $0) },
  "dictionary-add-remove-100": { addAndRemoveInDictionary(present: 99, repetitions: $0) },
  "dictionary-add-remove-100000": {
    addAndRemoveInDictionary(present: 99_999, repetitions: $0)
  },
]

/// Makes a multicast delegate, adds `observers` observers and removes them,
/// `repetitions` times: the timed add+remove benchmark's shape.
func fillAndEmpty(observers count: Int, repetitions: Int) {
  let observers = makeQuietObservers(count)
  for _ in 0..<repetitions {
    let delegate = MulticastDelegate<any TickObserver>()
    for observer in observers { delegate.addObserver(observer) }
    for observer in observers { delegate.removeObserver(observer) }
    consume(delegate)
  }
  consume(observers)
}

/// The same with the dictionary of weak boxes.
func fillAndEmptyDictionary(observers count: Int, repetitions: Int) {
  let observers = makeQuietObservers(count)
  for _ in 0..<repetitions {
    let design = DictionaryDesign()
    for observer in observers { design.add(observer) }
    for observer in observers { design.remove(observer) }
    consume(design)
  }
  consume(observers)
}

/// Adds an observer to a multicast delegate and removes it, `repetitions`
/// times, with `present` others registered: at 1, 10, 100 and 100,000
/// observers in all.
func addAndRemove(present: Int, repetitions: Int) {
  let delegate = MulticastDelegate<any TickObserver>()
  let observers = makeQuietObservers(present + 1)
  for observer in observers.dropFirst() { delegate.addObserver(observer) }
  for _ in 0..<repetitions {
    delegate.addObserver(observers[0])
    delegate.removeObserver(observers[0])
  }
  consume(observers)
}

/// The same with the dictionary of weak boxes (no lock: it is not
/// thread-safe).
func addAndRemoveInDictionary(present: Int, repetitions: Int) {
  let design = DictionaryDesign()
  let observers = makeQuietObservers(present + 1)
  for observer in observers.dropFirst() { design.add(observer) }
  for _ in 0..<repetitions {
    design.add(observers[0])
    design.remove(observers[0])
  }
  consume((design, observers))
}

/// A model with one observable property.
@Observable final class ObservableModel {
  var value = 0
}

/// Reads the model's property once.
@inline(never)
func counterOfModel(_ model: ObservableModel) {
  consume(model.value)
}

/// Subscribes and cancels `repetitions` times with `present` other
/// subscriptions.
func subscribeAndCancel(present: Int, repetitions: Int) {
  let (sender, counter, others) = eventWithSubscribers(present)
  for _ in 0..<repetitions {
    let subscription = sender.event.observe { [weak counter] in counter?.tick($0) }
    subscription.cancel()
  }
  consume((others, counter))
}

/// ``subscribeAndCancel(present:repetitions:)`` on the main actor.
@MainActor
func subscribeAndCancelOnMainActor(present: Int, repetitions: Int) {
  let (sender, counter, others) = eventWithSubscribers(present)
  for _ in 0..<repetitions {
    let subscription = sender.event.observe { [weak counter] in counter?.tick($0) }
    subscription.cancel()
  }
  consume((others, counter))
}

/// A sender with `present` closure subscriptions, each capturing the
/// returned counter weakly, as a view model's does.
func eventWithSubscribers(_ present: Int) -> (
  EventSender<Int>, QuietCounter, [Multicast.EventSubscription]
) {
  let sender = EventSender<Int>()
  let counter = QuietCounter()
  let others = (0..<present).map { _ in sender.event.observe { [weak counter] in counter?.tick($0) }
  }
  return (sender, counter, others)
}

/// An actor that subscribes itself with the actor form.
actor SubscribingActor {
  private var total = 0

  /// Subscribes with the actor form and cancels, `repetitions` times with
  /// `present` other subscriptions.
  func subscribeAndCancel(present: Int, repetitions: Int) {
    let sender = EventSender<Int>()
    let counter = SendableCounter()
    let others = (0..<present).map { _ in
      sender.event.observe { [weak counter] in counter?.tick($0) }
    }
    for _ in 0..<repetitions {
      let subscription = sender.event.observe(actor: self) { [weak counter] _, value in
        counter?.tick(value)
      }
      subscription.cancel()
    }
    consume((others, counter))
  }

  /// Observes an observable value's old and new values with the actor form
  /// and cancels, `repetitions` times with `present` other subscriptions.
  func observeValueAndCancel(present: Int, repetitions: Int) {
    let value = ObservableValue(0)
    let counter = SendableCounter()
    let others = (0..<present).map { _ in
      value.observe { [weak counter] _, new in counter?.tick(new) }
    }
    for _ in 0..<repetitions {
      let subscription = value.observe(actor: self) { [weak counter] _, _, new in
        counter?.tick(new)
      }
      subscription.cancel()
    }
    consume((others, counter))
  }

}

/// A counter that any isolation may tick.
final class SendableCounter: Sendable {
  let total = Atomic<Int>(0)

  func tick(_ value: Int) { total.add(value, ordering: .relaxed) }
}

/// A weak reference to an observer, never reassigned: reading a `let`
/// needs no exclusivity check.
final class WeakCell {
  weak let value: (any TickObserver)?

  init(_ value: any TickObserver) { self.value = value }
}

/// The tight floor: weak cells in this module, held as an app holds a
/// subject, each observer costing one weak load, the call and one release.
///
/// The cells are visited unretained, as the library visits its entries: a
/// cell read from the array is otherwise retained across the opaque call
/// (about 40 instructions an observer), and the floor then costs more than
/// a broadcast at 10 observers.
final class LocalFloor {
  private let cells: [WeakCell]
  private let unretainedCells: [Unmanaged<WeakCell>]

  init(_ observers: [any TickObserver]) {
    cells = observers.map(WeakCell.init)
    unretainedCells = cells.map { .passUnretained($0) }
  }

  @inline(__always)
  func broadcast(_ value: Int) {
    for cell in unretainedCells {
      cell._withUnsafeGuaranteedRef { $0.value?.tick(value) }
    }
  }
}

/// The tight floor for `count` observers, `repetitions` times in one loop.
func localFloor(observers count: Int, repetitions: Int) {
  let observers = makeQuietObservers(count)
  let floor = LocalFloor(observers)
  for value in 0..<repetitions { floor.broadcast(value) }
  consume((floor, observers))
}

/// A dictionary entry that holds its observer weakly.
struct WeakObservation {
  weak var observer: (any TickObserver)?
}

/// Broadcasts `repetitions` times to `count` observers.
func broadcast(to count: Int, repetitions: Int) {
  let delegate = MulticastDelegate<any TickObserver>()
  let observers = makeQuietObservers(count)
  for observer in observers { delegate.addObserver(observer) }
  for value in 0..<repetitions { delegate { $0.tick(value) } }
  consume(observers)
}

/// A subject as an app holds it: a property of one of its objects.
final class Subject {
  let observers = MulticastDelegate<any TickObserver>()
}

/// One broadcast, made as an app makes it.
@inline(never)
func broadcastOnce(_ subject: Subject, _ value: Int) {
  subject.observers { $0.tick(value) }
}

/// Broadcasts `repetitions` times to `count` observers, one call each.
func broadcastByCalls(to count: Int, repetitions: Int) {
  let subject = Subject()
  let observers = makeQuietObservers(count)
  for observer in observers { subject.observers.addObserver(observer) }
  for value in 0..<repetitions { broadcastOnce(subject, value) }
  consume((subject, observers))
}

/// One pass of the tight floor, made as ``broadcastOnce(_:_:)`` is.
@inline(never)
func floorOnce(_ floor: LocalFloor, _ value: Int) {
  floor.broadcast(value)
}

/// The tight floor for `count` observers, one call per pass.
func floorByCalls(observers count: Int, repetitions: Int) {
  let observers = makeQuietObservers(count)
  let floor = LocalFloor(observers)
  for value in 0..<repetitions { floorOnce(floor, value) }
  consume((floor, observers))
}

@inline(never)
nonisolated func sendWithoutIsolation(_ sender: EventSender<Int>, _ value: Int) {
  sender.send(value)
}

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--list" {
  print(cases.keys.sorted().joined(separator: "\n"))
  exit(0)
}
guard arguments.count == 3, let run = cases[arguments[1]], let repetitions = Int(arguments[2])
else {
  let names = cases.keys.sorted().joined(separator: ", ")
  print("usage: Instructions CASE REPETITIONS, where CASE is one of: \(names)")
  exit(2)
}
run(repetitions)
