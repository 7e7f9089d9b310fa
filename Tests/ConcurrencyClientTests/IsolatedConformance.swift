// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

// The second form of the README's "In a Swift 6 app", as a user writes it: a
// protocol with no isolation, adopted by a main-actor view through an
// isolated conformance and by an observer with no isolation, and a subject on
// the main actor, which calls them all.

protocol DownloadObserver: AnyObject {
  func download(_ download: Download, didReceive bytes: Int)
  func downloadDidFinish(_ download: Download)
}

extension DownloadObserver {
  func download(_ download: Download, didReceive bytes: Int) {}
  func downloadDidFinish(_ download: Download) {}
}

@MainActor
final class Download {
  private let observers = MulticastDelegate<any DownloadObserver>()
  private(set) var received = 0

  func addObserver(_ observer: any DownloadObserver) { observers.addObserver(observer) }
  func removeObserver(_ observer: any DownloadObserver) { observers.removeObserver(observer) }

  func receive(_ bytes: Int) {
    received += bytes
    observers { $0.download(self, didReceive: bytes) }
  }

  func finish() {
    observers { $0.downloadDidFinish(self) }
  }
}

@MainActor
final class ProgressBar {
  private(set) var text = "0 bytes"

  init(download: Download) {
    download.addObserver(self)
  }
}

extension ProgressBar: @MainActor DownloadObserver {
  func download(_ download: Download, didReceive bytes: Int) {
    text = "\(download.received) bytes"
  }

  func downloadDidFinish(_ download: Download) {
    text = "Done"
  }
}

/// An observer with no isolation: it adopts the protocol as it is.
final class DownloadLog: DownloadObserver {
  private(set) var lines: [String] = []

  func download(_ download: Download, didReceive bytes: Int) {
    lines.append("received \(bytes)")
  }

  func downloadDidFinish(_ download: Download) {
    lines.append("finished")
  }
}
