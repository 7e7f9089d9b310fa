// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

@Suite("Events and observable values across actors")
@MainActor
struct ClosureFacesAcrossActorsTests {
  @Test("A main-actor view model hears an actor's event and observable value, in order")
  func viewModelHearsAnActor() async {
    let transfer = FileTransfer(total: 400)
    let model = TransferViewModel(transfer: transfer)
    for _ in 0..<4 { await transfer.receive(100) }
    #expect(transfer.fraction.value == 1)
    for await _ in model.updates where model.lines.count == 4 { break }
    #expect(model.lines == ["100 of 400", "200 of 400", "300 of 400", "400 of 400"])
    // Setting the value on the main actor delivers what waits for it first.
    transfer.fraction.set(1)
    #expect(model.fractions == [0.25, 0.5, 0.75, 1, 1])
  }

  @Test("A detached task sends to main-actor subscribers, which hear every value in order")
  func detachedSender() async {
    let sender = EventSender<Int>()
    var heard: [Int] = []
    let subscription = sender.event.observe { heard.append($0) }
    await Task.detached {
      for value in 1...500 { sender.send(value) }
    }.value
    sender.send(501)  // on the main actor, after what waits
    #expect(heard == Array(1...501))
    withExtendedLifetime(subscription) {}
  }

  @Test("A view model's subscriptions end when it is released")
  func releasedViewModel() async {
    let transfer = FileTransfer(total: 10)
    var model: TransferViewModel? = TransferViewModel(transfer: transfer)
    weak let watched = model
    #expect(transfer.progress.hasObservers)
    model = nil
    #expect(watched == nil)
    #expect(!transfer.progress.hasObservers)
  }

  @Test("A subscription cancelled from another task hears nothing more")
  func cancelledFromAnotherTask() async {
    let sender = EventSender<TransferProgress>()
    let model = TransferViewModel(transfer: FileTransfer(total: 1))
    let subscription = model.follow(sender.event)
    sender.send(TransferProgress(received: 1, total: 2))
    await Task.detached { subscription.cancel() }.value
    sender.send(TransferProgress(received: 2, total: 2))
    #expect(model.lines == ["followed 1"])
  }
}
