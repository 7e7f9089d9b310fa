// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing

/// Writes each call it gets into a list, after checking at run time that it
/// runs on the main actor; it adopts the protocol through an isolated
/// conformance.
@MainActor
final class DownloadRecorder {
  let name: String
  let log: CallLog

  init(_ name: String, log: CallLog) {
    self.name = name
    self.log = log
  }
}

extension DownloadRecorder: @MainActor DownloadObserver {
  func download(_ download: Download, didReceive bytes: Int) {
    MainActor.preconditionIsolated()
    log.calls.append("\(name) received \(bytes)")
  }

  func downloadDidFinish(_ download: Download) {
    MainActor.preconditionIsolated()
    log.calls.append("\(name) finished")
  }
}

@Suite("A protocol with no isolation, adopted through isolated conformances")
@MainActor
struct IsolatedConformanceTests {
  @Test("Main-actor observers and observers with no isolation are called in registration order")
  func order() {
    let download = Download()
    let log = CallLog()
    let first = DownloadRecorder("first", log: log)
    let bar = ProgressBar(download: download)
    let downloadLog = DownloadLog()
    let second = DownloadRecorder("second", log: log)
    download.addObserver(first)
    download.addObserver(downloadLog)
    download.addObserver(second)

    download.receive(100)
    #expect(bar.text == "100 bytes")
    download.receive(20)
    #expect(bar.text == "120 bytes")
    download.finish()
    #expect(bar.text == "Done")
    #expect(downloadLog.lines == ["received 100", "received 20", "finished"])
    #expect(
      log.calls == [
        "first received 100", "second received 100", "first received 20",
        "second received 20", "first finished", "second finished",
      ])
    withExtendedLifetime((first, second, downloadLog)) {}
  }

  @Test("Code off the main actor broadcasts with await, and observers run on the main actor")
  func fromAnotherTask() async {
    let download = Download()
    let log = CallLog()
    let recorder = DownloadRecorder("recorder", log: log)
    download.addObserver(recorder)
    await Task.detached {
      await download.receive(7)
      await download.finish()
    }.value
    #expect(log.calls == ["recorder received 7", "recorder finished"])
    withExtendedLifetime(recorder) {}
  }

  @Test("A released observer hears nothing more, with no call to removeObserver")
  func releasedObserver() {
    let download = Download()
    let log = CallLog()
    let kept = DownloadRecorder("kept", log: log)
    var released: DownloadRecorder? = DownloadRecorder("released", log: log)
    download.addObserver(kept)
    download.addObserver(released!)
    download.receive(1)
    released = nil
    download.receive(2)
    #expect(log.calls == ["kept received 1", "released received 1", "kept received 2"])
    withExtendedLifetime(kept) {}
  }

  @Test("An observer with no isolation removed in a method hears nothing more")
  func removal() {
    let download = Download()
    let downloadLog = DownloadLog()
    download.addObserver(downloadLog)
    download.receive(1)
    download.removeObserver(downloadLog)
    download.finish()
    #expect(downloadLog.lines == ["received 1"])
  }
}
