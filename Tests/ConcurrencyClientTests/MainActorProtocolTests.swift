// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

/// Writes each call it gets into a shared log, after checking at run time
/// that it runs on the main actor.
@MainActor
final class PlayerRecorder: PlayerObserver {
  let name: String
  let log: CallLog

  init(_ name: String, log: CallLog) {
    self.name = name
    self.log = log
  }

  func player(_ player: Player, didStart item: Item) {
    MainActor.preconditionIsolated()
    log.calls.append("\(name) start \(item.title)")
  }

  func playerDidStop(_ player: Player) {
    MainActor.preconditionIsolated()
    log.calls.append("\(name) stop")
  }
}

@MainActor
final class CallLog {
  var calls: [String] = []
}

@Suite("A @MainActor protocol with a @MainActor subject")
@MainActor
struct MainActorProtocolTests {
  @Test("Main-actor observers hear every broadcast, in registration order")
  func order() {
    let player = Player()
    let log = CallLog()
    let first = PlayerRecorder("first", log: log)
    let model = NowPlayingModel(player: player)
    let second = PlayerRecorder("second", log: log)
    let label = StopLabel(player: player)
    player.addObserver(first)
    player.addObserver(second)
    player.addObserver(first)  // already registered: keeps its place

    player.play(Item(title: "So What"))
    #expect(model.title == "So What")
    #expect(label.text == "")
    player.stop()
    #expect(model.title == "")
    #expect(label.text == "Stopped")
    #expect(
      log.calls == ["first start So What", "second start So What", "first stop", "second stop"])
    withExtendedLifetime((first, second)) {}
  }

  @Test("Code off the main actor broadcasts with await, and observers run on the main actor")
  func fromAnotherTask() async {
    let player = Player()
    let log = CallLog()
    let recorder = PlayerRecorder("recorder", log: log)
    player.addObserver(recorder)
    await Task.detached {
      await player.play(Item(title: "Blue in Green"))
      await player.stop()
    }.value
    #expect(log.calls == ["recorder start Blue in Green", "recorder stop"])
    withExtendedLifetime(recorder) {}
  }

  @Test("A released observer hears nothing more, with no call to removeObserver")
  func releasedObserver() {
    let player = Player()
    let log = CallLog()
    let kept = PlayerRecorder("kept", log: log)
    var released: PlayerRecorder? = PlayerRecorder("released", log: log)
    player.addObserver(kept)
    player.addObserver(released!)
    player.play(Item(title: "One"))
    released = nil
    player.play(Item(title: "Two"))
    #expect(log.calls == ["kept start One", "released start One", "kept start Two"])
    withExtendedLifetime(kept) {}
  }

  @Test("A main-actor observer removed in a method hears nothing more")
  func removal() {
    let player = Player()
    let model = NowPlayingModel(player: player)
    player.play(Item(title: "One"))
    player.removeObserver(model)
    player.play(Item(title: "Two"))
    #expect(model.title == "One")
  }
}
