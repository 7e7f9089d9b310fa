// error: actor-isolated property 'observers' can not be referenced from the main actor
import Multicast

protocol PlayerObserver: AnyObject {
  func playerDidStart()
}

actor Player {
  let observers = MulticastDelegate<any PlayerObserver>()
}

@MainActor
final class PlayerView: PlayerObserver {
  init(player: Player) {
    player.observers.addObserver(self)
  }

  func playerDidStart() {}
}
