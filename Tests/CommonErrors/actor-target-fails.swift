// error: actor-isolated property 'received' can not be mutated from a nonisolated context
import Multicast

actor Tally {
  private(set) var received = 0

  func listen(to bytes: Event<Int>) {
    bytes.observe(self) { tally, count in tally.received += count }
  }
}
