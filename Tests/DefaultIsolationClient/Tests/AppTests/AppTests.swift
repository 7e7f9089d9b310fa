// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Downloads
import Testing

@testable import App

@Suite("An app target with main-actor isolation by default")
@MainActor
struct AppTests {
  @Test("The README's protocol and subject, unannotated, serve main-actor observers in order")
  func unannotatedForm() async {
    let player = Player()
    let model = NowPlayingModel(player: player)
    let label = StopLabel(player: player)
    player.play(Item(title: "So What"))
    #expect(model.title == "So What")
    #expect(label.text == "")
    // Code off the main actor reaches the subject with await.
    await Task.detached { await player.stop() }.value
    #expect(model.title == "")
    #expect(label.text == "Stopped")
  }

  @Test("A released observer hears nothing more, with no call to removeObserver")
  func releasedObserver() {
    let player = Player()
    let kept = NowPlayingModel(player: player)
    var released: NowPlayingModel? = NowPlayingModel(player: player)
    player.play(Item(title: "One"))
    #expect(released?.title == "One")
    weak let gone = released
    released = nil
    #expect(gone == nil)
    player.play(Item(title: "Two"))
    #expect(kept.title == "Two")
  }

  @Test(
    "A protocol from a module without the setting is adopted with an inferred isolated conformance")
  func libraryProtocol() {
    let download = Download()
    let bar = ProgressBar(download: download)
    download.receive(100)
    download.receive(20)
    #expect(bar.text == "120 bytes")
    download.finish()
    #expect(bar.text == "Done")
  }

  @Test("A nonisolated protocol of the app serves main-actor and nonisolated observers in order")
  func nonisolatedProtocol() {
    let upload = Upload()
    let button = UploadButton()
    let log = UploadLog()
    upload.addObserver(button)
    upload.addObserver(log)
    upload.start()
    #expect(button.title == "Uploading")
    upload.finish()
    #expect(button.title == "Uploaded")
    #expect(log.finished == 1)
  }

  @Test("A replaying event and an event derived from it serve a main-actor label")
  func replayingAndDerived() {
    let connection = Connection()
    connection.report("connecting")
    let label = StatusLabel(connection: connection)
    #expect(label.text == "connecting", "the latest status is replayed")
    connection.report("failed: timeout")
    connection.report("connected")
    #expect(label.text == "connected")
    #expect(label.failures == ["timeout"])
  }
}
