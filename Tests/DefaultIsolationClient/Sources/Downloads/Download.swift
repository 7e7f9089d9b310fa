// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

/// What a ``Download`` tells its observers.
///
/// It has no isolation: observers on the main actor adopt it through an
/// isolated conformance, and others as it is.
public protocol DownloadObserver: AnyObject {
  /// The download received `bytes` more bytes.
  func download(_ download: Download, didReceive bytes: Int)
  /// The download finished.
  func downloadDidFinish(_ download: Download)
}

extension DownloadObserver {
  /// Does nothing.
  public func download(_ download: Download, didReceive bytes: Int) {}
  /// Does nothing.
  public func downloadDidFinish(_ download: Download) {}
}

/// A download that tells its observers, on the main actor, how it goes.
@MainActor
public final class Download {
  private let observers = MulticastDelegate<any DownloadObserver>()

  /// How many bytes have arrived.
  public private(set) var received = 0

  /// Creates a download that has received nothing.
  public init() {}

  /// Adds an observer; it is held weakly.
  public func addObserver(_ observer: any DownloadObserver) { observers.addObserver(observer) }

  /// Removes an observer.
  public func removeObserver(_ observer: any DownloadObserver) {
    observers.removeObserver(observer)
  }

  /// Records `bytes` more bytes and tells the observers.
  public func receive(_ bytes: Int) {
    received += bytes
    observers { $0.download(self, didReceive: bytes) }
  }

  /// Tells the observers that the download finished.
  public func finish() {
    observers { $0.downloadDidFinish(self) }
  }
}
