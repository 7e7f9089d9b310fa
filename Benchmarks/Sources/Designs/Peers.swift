// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import OpenCombine

// The designs a user would otherwise pick, written as they are usually found,
// each broadcasting the same `tick` to the same observers.

/// The floor: weak references in small final class cells, each loaded once,
/// with the method called directly.
///
/// The cells are visited without retaining them (the array keeps them
/// alive), so each observer costs exactly one weak load, the call and one
/// release. No lock, no order guarantees under mutation, no thread safety:
/// nothing can do less and keep observers weak.
package final class FloorDesign {
  final class Cell {
    weak var observer: (any TickObserver)?
    init(_ observer: any TickObserver) { self.observer = observer }
  }
  private var cells: [Cell] = []
  private var unretainedCells: [Unmanaged<Cell>] = []

  package init() {}

  package func add(_ observer: any TickObserver) {
    let cell = Cell(observer)
    cells.append(cell)
    unretainedCells.append(.passUnretained(cell))
  }

  package func broadcast(_ value: Int) {
    unretainedCells.withUnsafeBufferPointer { cells in
      for cell in cells {
        cell._withUnsafeGuaranteedRef { $0.observer?.tick(value) }
      }
    }
  }
}

/// The floor run from several threads at once: the same cells, built once
/// and only read afterwards, so two threads share nothing but the observers
/// (and their reference counts, which every weak load touches): the bound no
/// weak design passes.
package final class SharedFloorDesign: Sendable {
  final class Cell: Sendable {
    weak let observer: (any SharedTickObserver)?
    init(_ observer: any SharedTickObserver) { self.observer = observer }
  }
  private let cells: [Cell]
  private let unretainedCells: [Unmanaged<Cell>]

  package init(_ observers: [any SharedTickObserver]) {
    cells = observers.map(Cell.init)
    unretainedCells = cells.map { .passUnretained($0) }
  }

  package func broadcast(_ value: Int) {
    unretainedCells.withUnsafeBufferPointer { cells in
      for cell in cells {
        cell._withUnsafeGuaranteedRef { $0.observer?.tick(value) }
      }
    }
  }
}

/// The classic design: a dictionary of weak boxes keyed by ObjectIdentifier.
///
/// Unordered; dead boxes are dropped during the broadcast.
package final class DictionaryDesign {
  package init() {}
  struct Observation {
    weak var observer: (any TickObserver)?
  }
  private var observations: [ObjectIdentifier: Observation] = [:]
  package func add(_ observer: any TickObserver) {
    observations[ObjectIdentifier(observer)] = Observation(observer: observer)
  }
  package func remove(_ observer: any TickObserver) {
    observations[ObjectIdentifier(observer)] = nil
  }
  package func broadcast(_ value: Int) {
    for (id, observation) in observations {
      guard let observer = observation.observer else {
        observations[id] = nil
        continue
      }
      observer.tick(value)
    }
  }
}

/// An array of weak `AnyObject` boxes behind a lock: what the lock-and-copy
/// designs share.
final class LockedWeakBoxes {
  final class WeakBox {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
  }
  private let lock = NSLock()
  private var boxes: [WeakBox] = []

  func append(_ object: AnyObject) {
    lock.lock()
    defer { lock.unlock() }
    boxes.append(WeakBox(object))
  }

  /// Runs `body` on the boxes with the lock held.
  func withBoxes<Result>(_ body: ([WeakBox]) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(boxes)
  }
}

/// The common design: a lock, an array of weak `AnyObject` boxes, a copy of
/// the live observers per broadcast, and a cast per observer.
package final class LockAndCopyDesign {
  private let boxes = LockedWeakBoxes()

  package init() {}

  package func add(_ observer: any TickObserver) { boxes.append(observer) }

  package func broadcast(_ body: (any TickObserver) -> Void) {
    let observers = boxes.withBoxes { $0.compactMap { $0.object as? any TickObserver } }
    for observer in observers { body(observer) }
  }
}

/// OpenCombine's PassthroughSubject with one sink per observer.
package final class CombineDesign {
  package init() {}
  package let subject = PassthroughSubject<Int, Never>()
  private var cancellables: [AnyCancellable] = []
  package func add(_ observer: any TickObserver) {
    subscribe(observer).store(in: &cancellables)
  }
  /// A sink that calls `observer` weakly, as a subscriber usually writes it.
  package func subscribe(_ observer: any TickObserver) -> AnyCancellable {
    subject.sink { [weak observer] value in observer?.tick(value) }
  }
  package func broadcast(_ value: Int) { subject.send(value) }

  /// Subscribes every observer with a sink, then cancels every sink.
  package func subscribeThenCancel(_ observers: [any TickObserver]) {
    var cancellables: [AnyCancellable] = []
    cancellables.reserveCapacity(observers.count)
    for observer in observers { cancellables.append(subscribe(observer)) }
    for cancellable in cancellables { cancellable.cancel() }
  }
}

/// OpenCombine's CurrentValueSubject with one sink per observer: the peer of
/// an observable value.
package final class CombineValueDesign {
  package init() {}
  package let subject = CurrentValueSubject<Int, Never>(0)
  private var cancellables: [AnyCancellable] = []
  package func add(_ observer: any TickObserver) {
    // Combine delivers the current value on subscribing; skip it, as an
    // observer of changes would.
    subject.dropFirst().sink { [weak observer] value in observer?.tick(value) }
      .store(in: &cancellables)
  }
  package func assign(_ value: Int) { subject.value = value }
}

/// Lock and copy for observers that may be called from any thread, so that
/// two threads can broadcast through one subject.
package final class SharedLockAndCopyDesign: @unchecked Sendable {
  // @unchecked Sendable: its boxes are read and written only with their
  // lock held, and the observers it hands out are Sendable.
  private let boxes = LockedWeakBoxes()

  package init() {}

  package func add(_ observer: any SharedTickObserver) { boxes.append(observer) }

  package func broadcast(_ value: Int) {
    let observers = boxes.withBoxes { $0.compactMap { $0.object as? any SharedTickObserver } }
    for observer in observers { observer.tick(value) }
  }
}

/// NotificationCenter with block observers, the value passed in `userInfo`.
package final class NotificationCenterDesign {
  package init() {}
  package static let name = Notification.Name("tick")
  package let center = NotificationCenter()
  private var tokens: [any NSObjectProtocol] = []
  /// A weak reference the center's `@Sendable` block may capture.
  // @unchecked Sendable: with `queue: nil` the center runs the block
  // synchronously on the posting thread, and the benchmark posts from one
  // thread only, so the observer never crosses threads.
  private final class WeakObserver: @unchecked Sendable {
    weak var observer: (any TickObserver)?
    init(_ observer: any TickObserver) { self.observer = observer }
  }

  package func add(_ observer: any TickObserver) {
    let weakObserver = WeakObserver(observer)
    tokens.append(
      center.addObserver(forName: Self.name, object: nil, queue: nil) { note in
        weakObserver.observer?.tick(note.userInfo?["value"] as? Int ?? 0)
      })
  }
  package func broadcast(_ value: Int) {
    center.post(name: Self.name, object: nil, userInfo: ["value": value])
  }
}
