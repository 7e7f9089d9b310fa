// warning: initialization of immutable value 'subscription' was never used; consider replacing with assignment to '_' or removing it
import Multicast

func showVolume() {
  let volume = ObservableValue(0.5)
  let subscription = volume.observe { old, new in print(old, "->", new) }
  volume.value = 0.7
}
