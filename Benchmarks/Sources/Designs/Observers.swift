// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// The observer protocol every design broadcasts to: class-bound, with a
/// default empty method, as users of the library write theirs.
package protocol TickObserver: AnyObject {
  func tick(_ value: Int)
}

extension TickObserver {
  package func tick(_ value: Int) {}
}

/// Two observer classes, so that calls through the protocol stay dynamic.
package final class Accumulator: TickObserver {
  package init() {}
  package var total = 0
  package func tick(_ value: Int) { total &+= value }
}

package final class Counter: TickObserver {
  package init() {}
  package var count = 0
  package func tick(_ value: Int) { count &+= 1 }
}

/// `count` observers alternating between the two classes.
package func makeObservers(_ count: Int) -> [any TickObserver] {
  (0..<count).map { $0.isMultiple(of: 2) ? Accumulator() as any TickObserver : Counter() }
}

/// The observer protocol for broadcasts from several threads at once: its
/// observers are `Sendable`, so a multicast delegate of them is too.
package protocol SharedTickObserver: AnyObject, Sendable {
  func tick(_ value: Int)
}

/// An observer that may be called from any thread: it keeps no state, so
/// two threads calling it at once share nothing but the call.
package final class Listener: SharedTickObserver {
  package init() {}
  package func tick(_ value: Int) {}
}
