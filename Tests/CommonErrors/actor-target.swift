import Multicast

actor Tally {
  private(set) var received = 0

  func listen(to bytes: Event<Int>) {
    bytes.observe(actor: self) { tally, count in tally.received += count }
  }
}
