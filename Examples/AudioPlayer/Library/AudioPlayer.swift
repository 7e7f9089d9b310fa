// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import Multicast

/// A music player that tells its observers about every change of state, and
/// about its progress and volume.
///
/// It shows each face of Multicast where it fits:
///
/// - Changes of state go to an ``AudioPlayerObserver`` protocol through a
///   private ``MulticastDelegate``. The player exposes only
///   ``addObserver(_:)`` and ``removeObserver(_:)``: observers can listen,
///   but only the player can broadcast.
/// - Progress is an ``Event`` of its own, ``elapsed``, sent by a private
///   ``EventSender`` as playback advances.
/// - The volume is an ``ObservableValue``: anyone may set it, and observers
///   hear the old and the new value.
///
/// The player and its views are on the main actor, as in a Swift 6 app: the
/// observer protocol is `@MainActor` too, so the player calls its views
/// directly, and code elsewhere reaches the player with `await`.
///
/// ```swift
/// let player = AudioPlayer(playlist: [song, otherSong])
/// let view = NowPlayingView(player: player, output: { print($0) })
/// try player.play(at: 0)  // prints "Now playing: ..."
/// var subscriptions: Set<Subscription> = []
/// player.elapsed.observe { print("at", $0) }.store(in: &subscriptions)
/// player.volume.observe { old, new in print(old, "->", new) }.store(in: &subscriptions)
/// player.advance(by: .seconds(30))  // prints "at 0:30 / 3:07"
/// player.volume.set(AudioPlayer.Volume(0.8)!)  // prints "50% -> 80%"
/// ```
@MainActor
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

  /// How far into an item playback is.
  public struct Progress: Equatable, Sendable, CustomStringConvertible {
    /// The item playing.
    public var item: Item
    /// How much of it has played.
    public var elapsed: TrackDuration

    /// Creates a progress.
    ///
    /// - Parameters:
    ///   - item: The item playing.
    ///   - elapsed: How much of it has played.
    public init(item: Item, elapsed: TrackDuration) {
      self.item = item
      self.elapsed = elapsed
    }

    /// The elapsed time and the item's duration, such as `0:30 / 9:22`.
    public var description: String { "\(elapsed) / \(item.duration)" }
  }

  /// A playback volume, from 0 (silent) to 1 (full).
  public struct Volume: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The level, from 0 to 1.
    public let level: Double

    /// A volume at `level`, or `nil` if `level` is not from 0 to 1.
    ///
    /// - Parameter level: The level, from 0 (silent) to 1 (full).
    public init?(_ level: Double) {
      guard (0...1).contains(level) else { return nil }
      self.level = level
    }

    /// The volume as a whole percentage, such as `80%`.
    public var description: String { "\(Int((level * 100).rounded()))%" }

    /// Returns whether `lhs` is quieter than `rhs`.
    ///
    /// - Parameters:
    ///   - lhs: A volume.
    ///   - rhs: Another volume.
    /// - Returns: `true` if `lhs` has the lower level.
    public static func < (lhs: Volume, rhs: Volume) -> Bool { lhs.level < rhs.level }
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
  /// How far into the current item playback is; zero when idle.
  public private(set) var elapsedTime = TrackDuration.seconds(0)

  /// The volume, half at first.
  ///
  /// Set its `value` to change it; observe it to hear each change with the
  /// old and the new volume.
  public let volume = ObservableValue(Volume(0.5)!)

  /// How far into its item playback is, sent each time playback advances
  /// (see ``advance(by:)``).
  public var elapsed: Event<Progress> { elapsedSender.event }

  private let observers = MulticastDelegate<any AudioPlayerObserver>()
  private let elapsedSender = EventSender<Progress>()

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
    elapsedTime = .seconds(0)
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
    elapsedTime = .seconds(0)
    observers { $0.audioPlayerDidStop(self) }
  }

  /// Lets playback run for `duration`, as the clock of a real player would.
  ///
  /// While an item plays, its elapsed time grows and ``elapsed`` is sent.
  /// When the item ends, the next one starts (or the player stops after the
  /// last) and the time left goes on in it. While paused or idle, nothing
  /// happens.
  ///
  /// - Parameter duration: How long playback runs; not negative.
  public func advance(by duration: TrackDuration) {
    precondition(
      duration.seconds >= 0,
      "advance(by:): the duration is \(duration.seconds) s; it cannot be negative")
    var remaining = duration.seconds
    while remaining > 0, case .playing(let item) = state {
      let step = min(remaining, item.duration.seconds - elapsedTime.seconds)
      remaining -= step
      elapsedTime = .seconds(elapsedTime.seconds + step)
      elapsedSender.send(Progress(item: item, elapsed: elapsedTime))
      if elapsedTime.seconds >= item.duration.seconds { next() }
    }
  }
}

/// A length of time in a track, in whole seconds.
///
/// The standard library's `Duration` would do, but it needs macOS 13 and iOS
/// 16, and the package supports macOS 10.15 and iOS 13.
public struct TrackDuration: Hashable, Sendable, CustomStringConvertible {
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
  public var description: String {
    let remainder = seconds % 60
    return "\(seconds / 60):\(remainder < 10 ? "0" : "")\(remainder)"
  }
}
