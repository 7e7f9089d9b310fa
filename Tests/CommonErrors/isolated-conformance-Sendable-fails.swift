// error: cannot form main actor-isolated conformance of 'ProgressBar' to SendableMetatype-inheriting protocol 'ProgressObserver'
import Multicast

protocol ProgressObserver: AnyObject, Sendable {
  func progressDidChange(_ fraction: Double)
}

final class Download: Sendable {
  private let observers = MulticastDelegate<any ProgressObserver>()

  func addObserver(_ observer: any ProgressObserver) {
    observers.addObserver(observer)
  }

  func report(_ fraction: Double) {
    observers { $0.progressDidChange(fraction) }
  }
}

// The compiler's fix-it for the plain conformance ("isolate this conformance
// to the main actor with '@MainActor'"), which a Sendable protocol refuses.
@MainActor
final class ProgressBar: @MainActor ProgressObserver {
  private(set) var fraction = 0.0

  init(download: Download) {
    download.addObserver(self)
  }

  func progressDidChange(_ fraction: Double) {
    self.fraction = fraction
  }
}
