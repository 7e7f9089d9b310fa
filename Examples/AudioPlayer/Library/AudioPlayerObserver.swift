// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What an ``AudioPlayer`` tells its observers: one method per change of
/// state.
///
/// Every method has an empty default, so an observer implements only the
/// changes it cares about.
///
/// Its observers are views, so it is on the main actor, as the player is: a
/// class that adopts it in its declaration is `@MainActor` too.
@MainActor
public protocol AudioPlayerObserver: AnyObject {
  /// The player started playing `item`, from idle, from another item, or
  /// from the start of the same item.
  func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item)
  /// The player paused `item`.
  func audioPlayer(_ player: AudioPlayer, didPause item: AudioPlayer.Item)
  /// The player resumed `item` after a pause.
  func audioPlayer(_ player: AudioPlayer, didResume item: AudioPlayer.Item)
  /// The player stopped and is idle.
  func audioPlayerDidStop(_ player: AudioPlayer)
}

extension AudioPlayerObserver {
  /// Does nothing.
  public func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item) {}
  /// Does nothing.
  public func audioPlayer(_ player: AudioPlayer, didPause item: AudioPlayer.Item) {}
  /// Does nothing.
  public func audioPlayer(_ player: AudioPlayer, didResume item: AudioPlayer.Item) {}
  /// Does nothing.
  public func audioPlayerDidStop(_ player: AudioPlayer) {}
}
