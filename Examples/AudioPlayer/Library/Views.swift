// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Shows the title and duration of the item that starts playing, and nothing
/// else: it implements one method of ``AudioPlayerObserver``.
public final class NowPlayingView: AudioPlayerObserver {
  private let output: (String) -> Void

  /// Creates a view that writes its lines to `output`.
  ///
  /// - Parameter output: Where each line goes.
  public init(output: @escaping (String) -> Void) {
    self.output = output
  }

  /// Shows the item that started.
  public func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item) {
    output("Now playing: \(item.title) (\(item.duration.minutesAndSeconds))")
  }
}

/// Shows the playlist with the current item marked, whenever the current item
/// changes or playing stops.
public final class PlaylistView: AudioPlayerObserver {
  private let output: (String) -> Void

  /// Creates a view that writes its lines to `output`.
  ///
  /// - Parameter output: Where each line goes.
  public init(output: @escaping (String) -> Void) {
    self.output = output
  }

  /// Shows the playlist with the started item marked.
  public func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item) {
    render(player)
  }

  /// Shows the playlist with nothing marked.
  public func audioPlayerDidStop(_ player: AudioPlayer) {
    render(player)
  }

  private func render(_ player: AudioPlayer) {
    let lines = player.playlist.enumerated().map { position, item in
      "\(position == player.currentPosition ? "▶" : " ") \(position + 1). \(item.title)"
    }
    output("Playlist:\n" + lines.joined(separator: "\n"))
  }
}

/// Shows one status line for every change of state.
public final class MiniPlayer: AudioPlayerObserver {
  private let output: (String) -> Void

  /// Creates a view that writes its lines to `output`.
  ///
  /// - Parameter output: Where each line goes.
  public init(output: @escaping (String) -> Void) {
    self.output = output
  }

  /// Shows that an item is playing.
  public func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item) {
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
}
