// The fix: a protocol with no isolation and async methods, which an actor
// and a main-actor class both adopt; the subject awaits each observer.
import Multicast

protocol ProgressObserver: AnyObject, Sendable {
  func progressDidChange(_ fraction: Double) async
}

actor Uploader: ProgressObserver {
  private(set) var fractions: [Double] = []

  func progressDidChange(_ fraction: Double) {
    fractions.append(fraction)
  }
}

@MainActor
final class ProgressBar: ProgressObserver {
  private(set) var fraction = 0.0

  func progressDidChange(_ fraction: Double) {
    self.fraction = fraction
  }
}

final class Download: Sendable {
  private let observers = MulticastDelegate<any ProgressObserver>()

  func addObserver(_ observer: any ProgressObserver) {
    observers.addObserver(observer)
  }

  func report(_ fraction: Double) async throws {
    try await observers.awaitEach { await $0.progressDidChange(fraction) }
  }
}
