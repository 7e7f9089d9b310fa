// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import AudioPlayer
import Dispatch
import Foundation
import Multicast
import Testing

/// Writes down, in one list, every change of state and every progress it
/// hears, after checking that it hears them on the main actor.
final class Journal: AudioPlayerObserver {
  var entries: [String] = []

  init(player: AudioPlayer) {
    player.addObserver(self)
    player.elapsed.observe(self, Journal.didAdvance)
  }

  func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item, at position: Int)
  {
    write("start \(item.title) at \(position)")
  }
  func audioPlayer(_ player: AudioPlayer, didPause item: AudioPlayer.Item) {
    write("pause \(item.title)")
  }
  func audioPlayer(_ player: AudioPlayer, didResume item: AudioPlayer.Item) {
    write("resume \(item.title)")
  }
  func audioPlayerDidStop(_ player: AudioPlayer) { write("stop") }

  private func didAdvance(_ progress: AudioPlayer.Progress) {
    write("\(progress.item.title) \(progress)")
  }

  private func write(_ entry: String) {
    MainActor.preconditionIsolated("a view heard the player off the main actor")
    entries.append(entry)
  }
}

/// Calls `action` when it hears that an item started; registered before the
/// views, it hears each change before them.
final class StartWatcher: AudioPlayerObserver {
  private let action: () -> Void

  init(_ action: @escaping () -> Void) { self.action = action }

  func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item, at position: Int)
  {
    action()
  }
}

@Suite("Audio player: delivery to the main actor")
@MainActor
struct DeliveryTests {
  @Test(
    "Views hear the player's changes and progress in the order they happened, with no wait between calls",
    arguments: [false, true])
  func order(fromDetachedTask: Bool) async throws {
    let player = AudioPlayer(playlist: songs)
    let journal = Journal(player: player)
    @Sendable func session() async throws {
      for _ in 0..<20 {
        try await player.play(at: 0)
        await player.advance(by: .seconds(100))  // One ends, Two starts and plays 35 s
        await player.pause()
        await player.resume()
        await player.advance(by: .seconds(1_000))  // Two ends: the player stops
        try await player.play(at: 1)
        await player.stop()
      }
    }
    if fromDetachedTask {
      try await Task.detached { try await session() }.value
    } else {
      try await session()
    }
    await waitForDeliveries()
    let once = [
      "start One at 0", "One 1:05 / 1:05", "start Two at 1", "Two 0:35 / 3:07", "pause Two",
      "resume Two", "Two 3:07 / 3:07", "stop", "start Two at 1", "stop",
    ]
    #expect(journal.entries == Array(repeating: once, count: 20).flatMap { $0 })
  }

  @Test("Views hear every face on the main actor when code elsewhere drives the player")
  func isolation() async throws {
    var lines: [String] = []
    let player = AudioPlayer(playlist: songs)
    let mini = MiniPlayer(player: player) { line in
      MainActor.preconditionIsolated("the mini player wrote off the main actor")
      lines.append(line)
    }
    var heard: [String] = []
    var subscriptions: Set<EventSubscription> = []
    player.elapsed.observe { progress in
      MainActor.preconditionIsolated("progress was heard off the main actor")
      heard.append("at \(progress)")
    }.store(in: &subscriptions)
    player.volume.observe { old, new in
      MainActor.preconditionIsolated("the volume was heard off the main actor")
      heard.append("\(old) -> \(new)")
    }.store(in: &subscriptions)

    try await Task.detached {
      try await player.play(at: 0)
      await player.advance(by: .seconds(5))
      player.volume.set(AudioPlayer.Volume(0.25)!)  // queued for the main actor
      player.volume.value = AudioPlayer.Volume(0.75)!  // queued too
      await player.stop()
      await waitForDeliveries()  // on no actor, it waits for every actor
    }.value
    // On the main actor, the change is heard before `set` returns.
    player.volume.set(AudioPlayer.Volume(1)!)

    // The player's news and the changes of the volume went through the main
    // actor's one queue: the views heard them in the order they were made.
    #expect(
      lines == [
        "[▶ One]", "[▶ One 0:05 / 1:05]", "[volume 50% → 25%]", "[volume 25% → 75%]",
        "[■ stopped]", "[volume 75% → 100%]",
      ])
    #expect(heard == ["at 0:05 / 1:05", "50% -> 25%", "25% -> 75%", "75% -> 100%"])
    withExtendedLifetime(mini) {}
  }

  @Test(
    "A view released before the player's news reaches it hears none of it, and is not kept alive")
  func releasedBeforeItsTurn() async throws {
    var lines: [String] = []
    let player = AudioPlayer(playlist: songs)
    weak var released: MiniPlayer?
    var mini: MiniPlayer?
    var releasedAtOnce = false
    // Registered first: it hears the start before the mini player does, and
    // releases it while the start and the news after it are still to come.
    let watcher = StartWatcher {
      guard mini != nil else { return }
      mini = nil
      releasedAtOnce = released == nil
    }
    player.addObserver(watcher)
    mini = MiniPlayer(player: player) { lines.append($0) }
    released = mini

    try await player.play(at: 0)
    await player.advance(by: .seconds(70))  // One ends, Two starts and plays 5 s
    await player.stop()
    await waitForDeliveries()

    #expect(releasedAtOnce)
    #expect(released == nil)
    #expect(lines.isEmpty)
    withExtendedLifetime(watcher) {}
  }

  @Test(
    "A view released while a change of the volume is queued for it is not called, and not kept alive"
  )
  func releasedWhileQueued() throws {
    var lines: [String] = []
    var witnessed: [String] = []
    let player = AudioPlayer(playlist: songs)
    var mini: MiniPlayer? = MiniPlayer(player: player) { lines.append($0) }
    weak let released = mini
    let witness = player.volume.observe { old, new in witnessed.append("\(old) -> \(new)") }

    // Set on a thread of its own, the change is queued for the main actor,
    // which is busy with this test until its end: it cannot deliver it yet.
    let queued = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      player.volume.set(AudioPlayer.Volume(0.25)!)
      queued.signal()
    }
    queued.wait()

    mini = nil
    #expect(released == nil)
    // On the main actor, a change first delivers the one queued.
    player.volume.set(try #require(AudioPlayer.Volume(1)))
    #expect(witnessed == ["50% -> 25%", "25% -> 100%"])
    #expect(lines.isEmpty)
    witness.cancel()
  }
}
