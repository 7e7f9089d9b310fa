// error: instance method 'observe(_:delivering:isolation:_:)' requires that 'Bool' be a class type
import Multicast

final class Settings {
  let isMuted = ObservableValue(false)
}

@MainActor
final class MuteButton {
  private(set) var isOn = false
  private var subscription: EventSubscription?

  init(settings: Settings) {
    subscription = settings.isMuted.observe(initial: true) { old, new in print(old, new) }
  }
}
