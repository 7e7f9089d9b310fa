// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Downloads
import Multicast

// The second form of "In a Swift 6 app" in this target. A protocol with no
// isolation, from a module without the setting, is adopted with no
// annotation: the conformance of a main-actor type is inferred isolated.

final class ProgressBar: DownloadObserver {
  private(set) var text = "0 bytes"

  init(download: Download) {
    download.addObserver(self)
  }

  func download(_ download: Download, didReceive bytes: Int) {
    text = "\(download.received) bytes"
  }

  func downloadDidFinish(_ download: Download) {
    text = "Done"
  }
}

// A protocol of this target that is for any isolation says so, and so do the
// default bodies, or they would be on the main actor.

nonisolated protocol UploadObserver: AnyObject {
  func uploadDidStart(_ upload: Upload)
  func uploadDidFinish(_ upload: Upload)
}

nonisolated extension UploadObserver {
  func uploadDidStart(_ upload: Upload) {}
  func uploadDidFinish(_ upload: Upload) {}
}

final class Upload {
  private let observers = MulticastDelegate<any UploadObserver>()

  func addObserver(_ observer: any UploadObserver) { observers.addObserver(observer) }

  func start() {
    observers { $0.uploadDidStart(self) }
  }

  func finish() {
    observers { $0.uploadDidFinish(self) }
  }
}

final class UploadButton: UploadObserver {  // on the main actor: an isolated conformance
  private(set) var title = "Upload"

  func uploadDidStart(_ upload: Upload) {
    title = "Uploading"
  }

  func uploadDidFinish(_ upload: Upload) {
    title = "Uploaded"
  }
}

nonisolated final class UploadLog: UploadObserver {  // no isolation
  private(set) var finished = 0

  func uploadDidFinish(_ upload: Upload) {
    finished += 1
  }
}
