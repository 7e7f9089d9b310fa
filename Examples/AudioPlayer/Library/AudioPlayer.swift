// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

/// A music player that tells its observers about every change of state.
///
/// The player keeps its ``MulticastDelegate`` private and exposes only
/// ``addObserver(_:)`` and ``removeObserver(_:)``: observers can listen, but
/// only the player can broadcast.
///
/// ```swift
/// let player = AudioPlayer(playlist: [song, otherSong])
/// let view = NowPlayingView(output: { print($0) })
/// player.addObserver(view)
/// try player.play(at: 0)  // prints "Now playing: ..."
/// ```
public final class AudioPlayer {
  /// A track the player can play.
  public struct Item: Equatable, Sendable {
    /// The track's title.
    public var title: String
    /// How long the track lasts.
    public var duration: TrackDuration

    /// Creates an item.
    ///
    /// - Parameters:
    ///   - title: The track's title.
    ///   - duration: How long the track lasts.
    public init(title: String, duration: TrackDuration) {
      self.title = title
      self.duration = duration
    }
  }

  /// What the player is doing.
  public enum State: Equatable, Sendable {
    /// Nothing is playing.
    case idle
    /// An item is playing.
    case playing(Item)
    /// An item is paused.
    case paused(Item)
  }

  /// An error from a request the player cannot carry out.
  public enum Error: Swift.Error, Equatable, CustomStringConvertible {
    /// The playlist has no item at that position.
    case noSuchItem(position: Int, playlistCount: Int)

    /// A sentence that says what went wrong.
    public var description: String {
      switch self {
      case .noSuchItem(let position, let count):
        "there is no item \(position + 1): the playlist has \(count) items"
      }
    }
  }

  /// The items the player plays, in order.
  public let playlist: [Item]
  /// What the player is doing now.
  public private(set) var state: State = .idle
  /// The position in ``playlist`` of the item playing or paused, if any.
  public private(set) var currentPosition: Int?

  private let observers = MulticastDelegate<any AudioPlayerObserver>()

  /// Creates an idle player.
  ///
  /// - Parameter playlist: The items the player plays, in order.
  public init(playlist: [Item]) {
    self.playlist = playlist
  }

  /// Adds an observer; it is held weakly.
  ///
  /// - Parameter observer: The observer to add.
  public func addObserver(_ observer: any AudioPlayerObserver) {
    observers.addObserver(observer)
  }

  /// Removes an observer.
  ///
  /// - Parameter observer: The observer to remove.
  public func removeObserver(_ observer: any AudioPlayerObserver) {
    observers.removeObserver(observer)
  }

  /// Starts playing the item at `position`, whatever is playing now.
  ///
  /// - Parameter position: A position in ``playlist``, from zero.
  /// - Throws: ``Error/noSuchItem(position:playlistCount:)`` if there is none.
  public func play(at position: Int) throws(Error) {
    guard playlist.indices.contains(position) else {
      throw .noSuchItem(position: position, playlistCount: playlist.count)
    }
    let item = playlist[position]
    currentPosition = position
    state = .playing(item)
    observers { $0.audioPlayer(self, didStartPlaying: item) }
  }

  /// Pauses the item playing.
  ///
  /// Does nothing unless an item is playing.
  public func pause() {
    guard case .playing(let item) = state else { return }
    state = .paused(item)
    observers { $0.audioPlayer(self, didPause: item) }
  }

  /// Resumes the paused item.
  ///
  /// Does nothing unless an item is paused.
  public func resume() {
    guard case .paused(let item) = state else { return }
    state = .playing(item)
    observers { $0.audioPlayer(self, didResume: item) }
  }

  /// Plays the next item, or stops after the last one.
  ///
  /// Starts with the first
  /// item when idle.
  public func next() {
    let position = currentPosition.map { $0 + 1 } ?? 0
    if playlist.indices.contains(position) {
      try? play(at: position)
    } else {
      stop()
    }
  }

  /// Stops playing.
  ///
  /// Does nothing when idle.
  public func stop() {
    guard state != .idle else { return }
    state = .idle
    currentPosition = nil
    observers { $0.audioPlayerDidStop(self) }
  }
}

/// How long a track lasts, in whole seconds.
///
/// The standard library's `Duration` would do, but it needs macOS 13 and iOS
/// 16, and the package supports macOS 10.15 and iOS 13.
public struct TrackDuration: Hashable, Sendable {
  /// The length in seconds.
  public var seconds: Int

  /// A duration of `seconds` seconds: `.seconds(187)`.
  ///
  /// - Parameter seconds: The length in seconds.
  /// - Returns: The duration.
  public static func seconds(_ seconds: Int) -> TrackDuration {
    TrackDuration(seconds: seconds)
  }

  /// The duration as minutes and seconds, such as `3:07`.
  var minutesAndSeconds: String {
    let remainder = seconds % 60
    return "\(seconds / 60):\(remainder < 10 ? "0" : "")\(remainder)"
  }
}
