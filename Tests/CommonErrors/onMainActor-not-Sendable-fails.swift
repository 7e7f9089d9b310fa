// error: type 'any PlayerObserver' does not conform to the 'Sendable' protocol
import Multicast

protocol PlayerObserver: AnyObject {
  func playerDidStart()
}

actor Player {
  let observers = MulticastDelegate<any PlayerObserver>()

  func start() {
    observers.onMainActor { $0.playerDidStart() }
  }
}
