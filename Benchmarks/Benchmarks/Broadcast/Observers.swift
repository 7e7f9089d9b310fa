/// The observer protocol every design broadcasts to: class-bound, with a
/// default empty method, as users of the library write theirs.
protocol TickObserver: AnyObject {
  func tick(_ value: Int)
}

extension TickObserver {
  func tick(_ value: Int) {}
}

/// Two observer classes, so that calls through the protocol stay dynamic.
final class Accumulator: TickObserver {
  var total = 0
  func tick(_ value: Int) { total &+= value }
}

final class Counter: TickObserver {
  var count = 0
  func tick(_ value: Int) { count &+= 1 }
}

/// `count` observers alternating between the two classes.
func makeObservers(_ count: Int) -> [any TickObserver] {
  (0..<count).map { $0.isMultiple(of: 2) ? Accumulator() as any TickObserver : Counter() }
}
