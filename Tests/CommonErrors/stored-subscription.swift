// The fix: keep the subscription for as long as it should last.
import Multicast

final class VolumeLabel {
  private(set) var text = ""
  private var subscription: EventSubscription?

  init(volume: ObservableValue<Double>) {
    subscription = volume.observe { [weak self] _, new in self?.text = "\(new)" }
  }
}

final class VolumeSlider {
  private(set) var position = 0.0

  init(volume: ObservableValue<Double>) {
    // The target form lasts while the target lives: nothing to keep.
    volume.observe(self) { slider, _, new in slider.position = new }
  }
}
