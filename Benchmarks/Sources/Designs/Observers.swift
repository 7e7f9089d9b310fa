/// The observer protocol every design broadcasts to: class-bound, with a
/// default empty method, as users of the library write theirs.
public protocol TickObserver: AnyObject {
  func tick(_ value: Int)
}

extension TickObserver {
  public func tick(_ value: Int) {}
}

/// Two observer classes, so that calls through the protocol stay dynamic.
public final class Accumulator: TickObserver {
  public init() {}
  public var total = 0
  public func tick(_ value: Int) { total &+= value }
}

public final class Counter: TickObserver {
  public init() {}
  public var count = 0
  public func tick(_ value: Int) { count &+= 1 }
}

/// `count` observers alternating between the two classes.
public func makeObservers(_ count: Int) -> [any TickObserver] {
  (0..<count).map { $0.isMultiple(of: 2) ? Accumulator() as any TickObserver : Counter() }
}
