// The fix: a closure gets the old and the new value; a target comes first.
import Multicast

final class Settings {
  let isMuted = ObservableValue(false)
}

@MainActor
final class MuteButton {
  private(set) var isOn = false
  private var subscription: EventSubscription?

  init(settings: Settings) {
    subscription = settings.isMuted.observe { old, new in print(old, "->", new) }
    settings.isMuted.observe(self) { me, _, new in me.isOn = new }
  }
}
