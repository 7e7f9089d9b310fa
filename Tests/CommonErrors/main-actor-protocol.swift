// The fix: the protocol, not the conformance, is on the main actor.
import Multicast

@MainActor
protocol ProgressObserver: AnyObject, Sendable {
  func progressDidChange(_ fraction: Double)
}

final class Download: Sendable {
  private let observers = MulticastDelegate<any ProgressObserver>()

  func addObserver(_ observer: any ProgressObserver) {
    observers.addObserver(observer)
  }

  func report(_ fraction: Double) {
    observers.onMainActor { $0.progressDidChange(fraction) }
  }
}

@MainActor
final class ProgressBar: ProgressObserver {
  private(set) var fraction = 0.0

  init(download: Download) {
    download.addObserver(self)
  }

  func progressDidChange(_ fraction: Double) {
    self.fraction = fraction
  }
}
