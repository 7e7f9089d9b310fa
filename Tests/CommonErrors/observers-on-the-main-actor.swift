// The fix of both: observers on the main actor, of a Sendable protocol.
import Multicast

@MainActor
protocol PlayerObserver: AnyObject, Sendable {
  func playerDidStart()
}

actor Player {
  private let observers = MulticastDelegate<any PlayerObserver>()

  nonisolated func addObserver(_ observer: any PlayerObserver) {
    observers.addObserver(observer)
  }

  func start() {
    observers.onMainActor { $0.playerDidStart() }
  }
}

@MainActor
final class PlayerView: PlayerObserver {
  init(player: Player) {
    player.addObserver(self)
  }

  func playerDidStart() {}
}
