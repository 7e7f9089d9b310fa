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
