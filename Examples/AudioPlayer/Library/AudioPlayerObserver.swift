// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What an ``AudioPlayer`` tells its observers, on the main actor: one
/// method per change of state.
///
/// Its observers are views, so it is on the main actor: a class that adopts
/// it in its declaration is `@MainActor` too. It is `Sendable`, as main-actor
/// classes are, so that the player, an actor of its own, can keep its
/// observers and broadcast to them.
///
/// An observer hears a change after the player made it, and the player may
/// have moved on meanwhile, so each call carries what an observer needs to
/// show it rather than leave the observer to read the player's state.
///
/// Every method has an empty default, so an observer implements only the
/// changes it cares about.
@MainActor
public protocol AudioPlayerObserver: AnyObject, Sendable {
  /// The player started playing `item`, at `position` in its playlist, from
  /// idle, from another item, or from the start of the same item.
  func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item, at position: Int)
  /// The player paused `item`.
  func audioPlayer(_ player: AudioPlayer, didPause item: AudioPlayer.Item)
  /// The player resumed `item` after a pause.
  func audioPlayer(_ player: AudioPlayer, didResume item: AudioPlayer.Item)
  /// The player stopped and is idle.
  func audioPlayerDidStop(_ player: AudioPlayer)
}

extension AudioPlayerObserver {
  /// Does nothing.
  public func audioPlayer(
    _ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item, at position: Int
  ) {}
  /// Does nothing.
  public func audioPlayer(_ player: AudioPlayer, didPause item: AudioPlayer.Item) {}
  /// Does nothing.
  public func audioPlayer(_ player: AudioPlayer, didResume item: AudioPlayer.Item) {}
  /// Does nothing.
  public func audioPlayerDidStop(_ player: AudioPlayer) {}
}
