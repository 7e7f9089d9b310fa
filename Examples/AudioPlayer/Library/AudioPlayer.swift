// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import Multicast

/// A music player that plays on an actor of its own and tells its views,
/// on the main actor, about every change of state, and about its progress
/// and volume.
///
/// It shows each face of Multicast where it fits:
///
/// - Changes of state go to an ``AudioPlayerObserver`` protocol through a
///   private ``MulticastDelegate``. The player exposes only
///   ``addObserver(_:)`` and ``removeObserver(_:)``: observers can listen,
///   but only the player can broadcast.
/// - Progress is an ``Event`` of its own, ``elapsed``, sent by a private
///   ``EventSender`` as playback advances.
/// - The volume is an ``ObservableValue``: anyone may set it, from anywhere,
///   and observers hear the old and the new value.
///
/// On the main actor:
///
/// ```swift
/// let player = AudioPlayer(playlist: [song, otherSong])
/// let view = NowPlayingView(player: player, output: { print($0) })
/// var subscriptions: Set<EventSubscription> = []
/// player.elapsed.observe { print("at", $0) }.store(in: &subscriptions)
/// player.volume.observe { old, new in print(old, "->", new) }.store(in: &subscriptions)
/// try await player.play(at: 0)
/// await player.advance(by: .seconds(30))
/// await waitForDeliveries()  // prints "Now playing: ..." and "at 0:30 / 3:07"
/// player.volume.set(AudioPlayer.Volume(0.8)!)  // prints "50% -> 80%"
/// ```
///
/// # Threads
///
/// The player is an actor, so its state and its playback live away from the
/// main actor, and code everywhere, the main actor included, calls its
/// methods with `await`. Its views are `@MainActor` classes, as in a Swift 6
/// app: they add themselves as observers and subscribe to ``elapsed`` and
/// ``volume`` on the main actor, with closures and methods that touch
/// main-actor state, and each handler runs there.
///
/// The player's news, its changes of state and its progress, leaves its
/// actor where it happens: each change of state is a broadcast to the
/// observers with `onMainActor`, each step of playback a send of
/// ``elapsed``. Both are queued for the main actor, and the library keeps
/// one order per destination actor: what is queued for the main actor,
/// through any subject and any face, arrives there in the order it was
/// queued. So when one call to ``advance(by:)`` ends an item, starts the
/// next and plays into it, the views hear the progress, the start and the
/// progress again in that order.
///
/// The player's methods return before the views hear their news; the
/// library's `waitForDeliveries()` waits until they have: on the main
/// actor, it delivers there at once what waits for it.
///
/// The volume's observers hear each change from the `ObservableValue`
/// itself, through the same queue of the main actor. Set on the main actor
/// with `set(_:)`, a change is heard there before `set` returns, after the
/// news still queued for it. Set anywhere else, it is queued for the main
/// actor in order with the player's news.
///
/// # Lifetime
///
/// Observers, and views subscribed as targets, are held weakly. A view that
/// is released hears nothing more, not even news already on its way, and
/// news on its way keeps no view alive. A view hears the news the player
/// sends after it registers, and none sent before, even news still on its
/// way to the main actor. News on its way when its owner releases the
/// player is delivered all the same: a broadcast holds the player until its
/// turn.
public actor AudioPlayer {
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
  public nonisolated let playlist: [Item]
  /// What the player is doing now.
  public private(set) var state: State = .idle
  /// The position in ``playlist`` of the item playing or paused, if any.
  public private(set) var currentPosition: Int?
  /// How far into the current item playback is; zero when idle.
  public private(set) var elapsedTime = TrackDuration.seconds(0)

  /// The volume, half at first.
  ///
  /// Set it from anywhere, with `set(_:)` or by assigning its `value`;
  /// observe it to hear each change with the old and the new volume, on the
  /// isolation you observe it from.
  public nonisolated let volume = ObservableValue(Volume(0.5)!)

  /// How far into its item playback is, sent each time playback advances
  /// (see ``advance(by:)``).
  ///
  /// It is sent from the player's actor. Subscribed on the main actor, as the
  /// views do, it is heard there in order with the broadcasts to the
  /// observers, which go through the same queue.
  public nonisolated let elapsed: Event<Progress>

  private nonisolated let observers = MulticastDelegate<any AudioPlayerObserver>()
  private nonisolated let elapsedSender = EventSender<Progress>()

  /// Creates an idle player.
  ///
  /// - Parameter playlist: The items the player plays, in order.
  public init(playlist: [Item]) {
    self.playlist = playlist
    elapsed = elapsedSender.event
  }

  /// Adds an observer; it is held weakly.
  ///
  /// It hears the changes the player broadcasts after this call, and none
  /// broadcast before it, even one still on its way to the main actor.
  ///
  /// - Parameter observer: The observer to add.
  public nonisolated func addObserver(_ observer: any AudioPlayerObserver) {
    observers.addObserver(observer)
  }

  /// Removes an observer.
  ///
  /// Observers are held weakly, so one that is released never needs
  /// removing.
  ///
  /// - Parameter observer: The observer to remove.
  public nonisolated func removeObserver(_ observer: any AudioPlayerObserver) {
    observers.removeObserver(observer)
  }

  /// Starts playing the item at `position`, whatever is playing now.
  ///
  /// - Parameter position: A position in ``playlist``, from zero.
  /// - Throws: ``Error/noSuchItem(position:playlistCount:)`` if there is
  ///   none; nothing changes then.
  public func play(at position: Int) throws(Error) {
    guard playlist.indices.contains(position) else {
      throw .noSuchItem(position: position, playlistCount: playlist.count)
    }
    let item = playlist[position]
    currentPosition = position
    elapsedTime = .seconds(0)
    state = .playing(item)
    observers.onMainActor { $0.audioPlayer(self, didStartPlaying: item, at: position) }
  }

  /// Pauses the item playing.
  ///
  /// Does nothing unless an item is playing.
  public func pause() {
    guard case .playing(let item) = state else { return }
    state = .paused(item)
    observers.onMainActor { $0.audioPlayer(self, didPause: item) }
  }

  /// Resumes the paused item.
  ///
  /// Does nothing unless an item is paused.
  public func resume() {
    guard case .paused(let item) = state else { return }
    state = .playing(item)
    observers.onMainActor { $0.audioPlayer(self, didResume: item) }
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
    observers.onMainActor { $0.audioPlayerDidStop(self) }
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
