// error: actor 'Uploader' cannot conform to global-actor-isolated protocol 'ProgressObserver'
import Multicast

@MainActor
protocol ProgressObserver: AnyObject, Sendable {
  func progressDidChange(_ fraction: Double)
}

actor Uploader: ProgressObserver {
  private var fractions: [Double] = []

  func progressDidChange(_ fraction: Double) {
    fractions.append(fraction)
  }
}
