// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

@Suite("An actor subject with main-actor observers")
@MainActor
struct ActorSubjectTests {
  @Test("Progress from the actor reaches the main-actor model in order")
  func inOrder() async {
    let transfer = Transfer()
    let model = TransferModel(transfer: transfer)
    for step in 1...100 { await transfer.received(Double(step) / 100) }
    await model.waitUntilHeard(100)
    #expect(model.fractions == (1...100).map { Double($0) / 100 })
  }

  @Test("Broadcasts from a detached task come in the order it made them")
  func fromADetachedTask() async {
    let observers = MulticastDelegate<any TransferObserver>()
    let transfer = Transfer()
    let model = TransferModel(transfer: transfer)
    observers.addObserver(model)
    await Task.detached {
      for step in 0..<500 {
        observers.onMainActor { $0.transfer(transfer, didProgress: Double(step)) }
      }
    }.value
    await model.waitUntilHeard(500)
    #expect(model.fractions == (0..<500).map(Double.init))
  }

  @Test("A model removed before its turn hears nothing more")
  func removal() async {
    let transfer = Transfer()
    let (kept, removed) = (TransferModel(transfer: transfer), TransferModel(transfer: transfer))
    await transfer.received(0.5)
    transfer.removeObserver(removed)
    await transfer.received(1)
    await kept.waitUntilHeard(2)
    #expect(kept.fractions == [0.5, 1])
    #expect(removed.fractions.count <= 1)
  }
}
