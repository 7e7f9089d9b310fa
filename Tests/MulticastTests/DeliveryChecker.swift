// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

/// One value a producer broadcast, as an observer received it.
struct Delivery: Equatable, Sendable {
  var producer: Int
  var value: Int
}

/// What each producer had finished broadcasting around one observer's
/// registration and removal: the bounds on which broadcasts it must get.
///
/// Producer `p` broadcasts the values 0, 1, 2, … in turn and, after each
/// broadcast returns, publishes the value as its progress. So if a reading
/// of the progress was `k`, broadcasts up to `k` were made before the
/// reading, and those from `k + 2` on were made after it (`k + 1` may have
/// been under way).
struct RegistrationWindow: Sendable {
  /// Progress read just before the observer was added.
  var beforeAdding: [Int]
  /// Progress read just after it was added.
  var afterAdding: [Int]
  /// Progress read just before it was removed; the last value of each
  /// producer if it never was.
  var beforeRemoving: [Int]
  /// Progress read just after it was removed; the last value of each
  /// producer if it never was.
  var afterRemoving: [Int]
  /// Whether it was removed before the last broadcast was delivered.
  var wasRemoved: Bool

  /// The window of an observer registered before any producer started and
  /// never removed, of producers that broadcast `count` values each: as if
  /// the progress read after adding it were two before the first value.
  static func always(producers: Int, count: Int) -> RegistrationWindow {
    let none = Array(repeating: -2, count: producers)
    let all = Array(repeating: count - 1, count: producers)
    return RegistrationWindow(
      beforeAdding: none, afterAdding: none, beforeRemoving: all, afterRemoving: all,
      wasRemoved: false)
  }
}

/// Checks what one observer received against its registration window.
///
/// Each producer's values must arrive in the order they were broadcast, none
/// twice, with no gap: a registration is one stretch of time, and a producer
/// broadcasts one value after another. None made wholly outside the window
/// may be there, and all made wholly inside it must be, unless the observer
/// was removed: broadcasts still queued for it then are not delivered (it is
/// removed before their turn), so it gets from each producer the first of
/// those made inside the window, in order, with none skipped.
///
/// - Returns: What was wrong, one line per problem; empty if nothing was.
func deliveryProblems(_ received: [Delivery], window: RegistrationWindow) -> [String] {
  var problems: [String] = []
  for producer in window.beforeAdding.indices {
    let values = received.filter { $0.producer == producer }.map(\.value)
    let steps = zip(values, values.dropFirst())
    if let (earlier, later) = steps.first(where: { $1 != $0 + 1 }) {
      let count = steps.count { $1 != $0 + 1 }
      problems.append("producer \(producer): \(later) arrived after \(earlier) (\(count) such)")
    }
    let allowed = (window.beforeAdding[producer] + 1)...(window.afterRemoving[producer] + 1)
    if let stray = values.first(where: { !allowed.contains($0) }) {
      problems.append(
        "producer \(producer): \(stray) arrived, made outside the registration \(allowed)")
    }
    let (first, last) = (window.afterAdding[producer] + 2, window.beforeRemoving[producer])
    guard first <= last else { continue }
    if window.wasRemoved {
      if let start = values.first, start > first {
        problems.append("producer \(producer): \(start) arrived first, \(first) must before it")
      }
    } else if values.isEmpty {
      problems.append("producer \(producer): nothing arrived, \(first)...\(last) must")
    } else if values.first! > first || values.last! < last {
      problems.append(
        "producer \(producer): \(values.first!)...\(values.last!) arrived, \(first)...\(last) must")
    }
  }
  return problems
}

@Suite("The delivery checker")
struct DeliveryCheckerTests {
  let window = RegistrationWindow(
    beforeAdding: [9], afterAdding: [10], beforeRemoving: [20], afterRemoving: [21],
    wasRemoved: false)

  func values(_ values: [Int]) -> [Delivery] {
    values.map { Delivery(producer: 0, value: $0) }
  }

  @Test("Accepts every broadcast made while registered, with the ones under way either side")
  func acceptsAWholeWindow() {
    #expect(deliveryProblems(values(Array(12...20)), window: window).isEmpty)
    #expect(deliveryProblems(values(Array(10...22)), window: window).isEmpty)
  }

  @Test("Finds a broadcast lost, repeated, out of order or made outside the registration")
  func findsEachKindOfFault() {
    #expect(!deliveryProblems(values(Array(12...15) + Array(17...20)), window: window).isEmpty)
    #expect(!deliveryProblems(values([12, 13, 13] + Array(14...20)), window: window).isEmpty)
    #expect(!deliveryProblems(values([12, 14, 13] + Array(15...20)), window: window).isEmpty)
    #expect(!deliveryProblems(values(Array(9...20)), window: window).isEmpty)
    #expect(!deliveryProblems(values(Array(12...23)), window: window).isEmpty)
    #expect(!deliveryProblems(values(Array(13...20)), window: window).isEmpty)
    #expect(!deliveryProblems(values(Array(12...19)), window: window).isEmpty)
    #expect(!deliveryProblems([], window: window).isEmpty)
  }

  @Test("Of an observer removed, accepts the broadcasts delivered before it was, and no other")
  func acceptsAPrefixOnceRemoved() {
    var window = window
    window.wasRemoved = true
    #expect(deliveryProblems(values(Array(12...15)), window: window).isEmpty)
    #expect(deliveryProblems(values([]), window: window).isEmpty)
    #expect(!deliveryProblems(values(Array(13...15)), window: window).isEmpty)
    #expect(!deliveryProblems(values([12, 14]), window: window).isEmpty)
    #expect(!deliveryProblems(values(Array(12...23)), window: window).isEmpty)
  }

  @Test("Keeps producers apart")
  func keepsProducersApart() {
    let window = RegistrationWindow.always(producers: 2, count: 3)
    let interleaved = [(1, 0), (0, 0), (0, 1), (1, 1), (1, 2), (0, 2)]
    let received = interleaved.map { Delivery(producer: $0.0, value: $0.1) }
    #expect(deliveryProblems(received, window: window).isEmpty)
    #expect(!deliveryProblems(Array(received.dropLast()), window: window).isEmpty)
  }
}
