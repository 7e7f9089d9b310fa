// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

/// Shows the title and duration of the item that starts playing, and nothing
/// else: it implements one method of ``AudioPlayerObserver``.
@MainActor
public final class NowPlayingView: AudioPlayerObserver {
  private let output: (String) -> Void

  /// Creates a view of `player` that writes its lines to `output`.
  ///
  /// - Parameters:
  ///   - player: The player to show; the view observes it from now on.
  ///   - output: Where each line goes.
  public init(player: AudioPlayer, output: @escaping (String) -> Void) {
    self.output = output
    player.addObserver(self)
  }

  /// Shows the item that started.
  public func audioPlayer(
    _ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item, at position: Int
  ) {
    output("Now playing: \(item.title) (\(item.duration))")
  }
}

/// Shows the playlist with the current item marked, whenever the current item
/// changes or playing stops.
@MainActor
public final class PlaylistView: AudioPlayerObserver {
  private let output: (String) -> Void

  /// Creates a view of `player` that writes its lines to `output`.
  ///
  /// - Parameters:
  ///   - player: The player to show; the view observes it from now on.
  ///   - output: Where each line goes.
  public init(player: AudioPlayer, output: @escaping (String) -> Void) {
    self.output = output
    player.addObserver(self)
  }

  /// Shows the playlist with the started item marked.
  public func audioPlayer(
    _ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item, at position: Int
  ) {
    render(player.playlist, marking: position)
  }

  /// Shows the playlist with nothing marked.
  public func audioPlayerDidStop(_ player: AudioPlayer) {
    render(player.playlist, marking: nil)
  }

  private func render(_ playlist: [AudioPlayer.Item], marking current: Int?) {
    let lines = playlist.enumerated().map { position, item in
      "\(position == current ? "▶" : " ") \(position + 1). \(item.title)"
    }
    output("Playlist:\n" + lines.joined(separator: "\n"))
  }
}

/// Shows one status line for every change of state, for progress and for the
/// volume.
///
/// It observes all three faces of the player: its ``AudioPlayerObserver``
/// methods, its ``AudioPlayer/elapsed`` event with a method, and its
/// ``AudioPlayer/volume`` with a closure. It subscribes on the main actor,
/// where it lives, so the method and the closure run there and may touch its
/// state, while the player plays on its own actor.
@MainActor
public final class MiniPlayer: AudioPlayerObserver {
  private let output: (String) -> Void

  /// Creates a view of `player` that writes its lines to `output`.
  ///
  /// - Parameters:
  ///   - player: The player to show; the view observes its changes of state,
  ///     its progress and its volume from now on.
  ///   - output: Where each line goes.
  public init(player: AudioPlayer, output: @escaping (String) -> Void) {
    self.output = output
    player.addObserver(self)
    // Both subscriptions last while the view lives.
    player.elapsed.observe(self, MiniPlayer.showProgress)
    player.volume.observe(self) { view, old, new in view.output("[volume \(old) → \(new)]") }
  }

  /// Shows that an item is playing.
  public func audioPlayer(
    _ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item, at position: Int
  ) {
    output("[▶ \(item.title)]")
  }

  /// Shows that an item is paused.
  public func audioPlayer(_ player: AudioPlayer, didPause item: AudioPlayer.Item) {
    output("[❚❚ \(item.title)]")
  }

  /// Shows that an item is playing again.
  public func audioPlayer(_ player: AudioPlayer, didResume item: AudioPlayer.Item) {
    output("[▶ \(item.title)]")
  }

  /// Shows that nothing is playing.
  public func audioPlayerDidStop(_ player: AudioPlayer) {
    output("[■ stopped]")
  }

  /// Shows how far into its item playback is, such as `[▶ So What 0:30 / 9:22]`.
  private func showProgress(_ progress: AudioPlayer.Progress) {
    output("[▶ \(progress.item.title) \(progress)]")
  }
}
