// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import AudioPlayer
import Multicast
import Testing

/// Records every call an observer gets, in order; on the main actor, as its
/// protocol is.
final class CallRecorder: AudioPlayerObserver {
  var calls: [String] = []
  func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item, at position: Int)
  {
    calls.append("start \(item.title)")
  }
  func audioPlayer(_ player: AudioPlayer, didPause item: AudioPlayer.Item) {
    calls.append("pause \(item.title)")
  }
  func audioPlayer(_ player: AudioPlayer, didResume item: AudioPlayer.Item) {
    calls.append("resume \(item.title)")
  }
  func audioPlayerDidStop(_ player: AudioPlayer) { calls.append("stop") }
}

let songs = [
  AudioPlayer.Item(title: "One", duration: .seconds(65)),
  AudioPlayer.Item(title: "Two", duration: .seconds(187)),
]

@Suite("Audio player")
@MainActor
struct AudioPlayerTests {
  @Test("Observers get one call per change of state, in order")
  func transitions() async throws {
    let player = AudioPlayer(playlist: songs)
    let recorder = CallRecorder()
    player.addObserver(recorder)
    try await player.play(at: 0)
    await player.pause()
    await player.resume()
    await player.next()
    await player.next()
    await waitForDeliveries()
    #expect(recorder.calls == ["start One", "pause One", "resume One", "start Two", "stop"])
    #expect(await player.state == .idle)
  }

  @Test("Requests that change nothing broadcast nothing")
  func harmlessRequests() async throws {
    let player = AudioPlayer(playlist: songs)
    let recorder = CallRecorder()
    player.addObserver(recorder)
    await player.pause()
    await player.resume()
    await player.stop()
    try await player.play(at: 1)
    await player.resume()
    await player.pause()
    await player.pause()
    await waitForDeliveries()
    #expect(recorder.calls == ["start Two", "pause Two"])
    #expect(await player.state == .paused(songs[1]))
  }

  @Test("Playing past the end of the playlist is an error that says why")
  func noSuchItem() async {
    let player = AudioPlayer(playlist: songs)
    await #expect(throws: AudioPlayer.Error.noSuchItem(position: 5, playlistCount: 2)) {
      try await player.play(at: 5)
    }
    #expect(
      "\(AudioPlayer.Error.noSuchItem(position: 5, playlistCount: 2))"
        == "there is no item 6: the playlist has 2 items")
  }

  @Test("Each view renders only the changes it implements")
  func views() async throws {
    var lines: [String] = []
    let player = AudioPlayer(playlist: songs)
    let nowPlaying = NowPlayingView(player: player) { lines.append("now: " + $0) }
    let playlist = PlaylistView(player: player) { lines.append("list: " + $0) }
    let mini = MiniPlayer(player: player) { lines.append("mini: " + $0) }
    try await player.play(at: 1)
    await player.advance(by: .seconds(30))
    // Set on the main actor, the volume first delivers the player's news
    // still queued there: the views hear it all in order.
    player.volume.set(try #require(AudioPlayer.Volume(0.25)))
    await player.pause()
    await player.stop()
    await waitForDeliveries()
    #expect(
      lines == [
        "now: Now playing: Two (3:07)",
        "list: Playlist:\n  1. One\n▶ 2. Two",
        "mini: [▶ Two]",
        "mini: [▶ Two 0:30 / 3:07]",
        "mini: [volume 50% → 25%]",
        "mini: [❚❚ Two]",
        "list: Playlist:\n  1. One\n  2. Two",
        "mini: [■ stopped]",
      ])
    withExtendedLifetime((nowPlaying, playlist, mini)) {}
  }

  @Test("Code off the main actor drives the player with await; the views hear it on the main actor")
  func fromAnotherTask() async throws {
    var lines: [String] = []
    let player = AudioPlayer(playlist: songs)
    let mini = MiniPlayer(player: player) { line in
      MainActor.preconditionIsolated()
      lines.append(line)
    }
    try await Task.detached {
      try await player.play(at: 0)
      await player.advance(by: .seconds(5))
      await player.stop()
    }.value
    await waitForDeliveries()
    #expect(lines == ["[▶ One]", "[▶ One 0:05 / 1:05]", "[■ stopped]"])
    withExtendedLifetime(mini) {}
  }

  @Test("A view that is released hears nothing more, on any face")
  func viewLifetime() async throws {
    var lines: [String] = []
    let player = AudioPlayer(playlist: songs)
    var mini: MiniPlayer? = MiniPlayer(player: player) { lines.append($0) }
    try await player.play(at: 0)
    await waitForDeliveries()
    mini = nil
    await player.advance(by: .seconds(5))
    player.volume.set(try #require(AudioPlayer.Volume(1)))
    await player.stop()
    await waitForDeliveries()
    #expect(lines == ["[▶ One]"])
    _ = mini
  }

  @Test("Playback advances while playing, goes on into the next item, and stops after the last")
  func progress() async throws {
    let player = AudioPlayer(playlist: songs)
    let recorder = CallRecorder()
    player.addObserver(recorder)
    var sent: [String] = []
    let subscription = player.elapsed.observe { sent.append("\($0.item.title) \($0)") }
    await player.advance(by: .seconds(10))  // idle: nothing plays
    try await player.play(at: 0)
    await player.advance(by: .seconds(20))
    await player.pause()
    await player.advance(by: .seconds(100))  // paused: nothing moves
    #expect(await player.elapsedTime == .seconds(20))
    await player.resume()
    await player.advance(by: .seconds(50))  // the 45 s left of One, then 5 s of Two
    #expect(await player.currentPosition == 1)
    #expect(await player.elapsedTime == .seconds(5))
    await player.advance(by: .seconds(1_000))
    await waitForDeliveries()
    #expect(
      sent == ["One 0:20 / 1:05", "One 1:05 / 1:05", "Two 0:05 / 3:07", "Two 3:07 / 3:07"])
    #expect(
      recorder.calls == ["start One", "pause One", "resume One", "start Two", "stop"])
    #expect(await player.state == .idle)
    #expect(await player.elapsedTime == .seconds(0))
    subscription.cancel()
  }

  @Test("Volume: from 0 to 1 only, each change heard with the old and the new value")
  func volume() async throws {
    #expect(AudioPlayer.Volume(1.5) == nil)
    #expect(AudioPlayer.Volume(-0.1) == nil)
    #expect(AudioPlayer.Volume(.nan) == nil)
    let player = AudioPlayer(playlist: songs)
    #expect(player.volume.value.level == 0.5)
    var changes: [String] = []
    let subscription = player.volume.observe { old, new in changes.append("\(old) → \(new)") }
    for line in ["volume 0.8", "volume 0"] {
      try await player.perform(#require(try Command(parsing: line)))
    }
    #expect(changes == ["50% → 80%", "80% → 0%"])
    subscription.cancel()
  }

  @Test("The player's documented example works as written")
  func documentedExample() async throws {
    var printed: [String] = []
    func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
    let (song, otherSong) = (songs[1], songs[0])

    let player = AudioPlayer(playlist: [song, otherSong])
    let view = NowPlayingView(player: player, output: { print($0) })
    var subscriptions: Set<EventSubscription> = []
    player.elapsed.observe { print("at", $0) }.store(in: &subscriptions)
    player.volume.observe { old, new in print(old, "->", new) }.store(in: &subscriptions)
    try await player.play(at: 0)
    await player.advance(by: .seconds(30))
    await waitForDeliveries()  // prints "Now playing: ..." and "at 0:30 / 3:07"
    #expect(printed == ["Now playing: Two (3:07)", "at 0:30 / 3:07"])
    player.volume.set(AudioPlayer.Volume(0.8)!)  // prints "50% -> 80%"

    #expect(printed == ["Now playing: Two (3:07)", "at 0:30 / 3:07", "50% -> 80%"])
    subscriptions.removeAll()
    await player.advance(by: .seconds(1))
    await waitForDeliveries()
    #expect(printed.count == 3)
    withExtendedLifetime(view) {}
  }

  @Test("A removed or deallocated observer hears nothing more")
  func removal() async throws {
    let player = AudioPlayer(playlist: songs)
    let kept = CallRecorder()
    let removed = CallRecorder()
    var dropped: CallRecorder? = CallRecorder()
    for observer in [kept, removed, dropped!] { player.addObserver(observer) }
    player.removeObserver(removed)
    dropped = nil
    try await player.play(at: 0)
    await waitForDeliveries()
    #expect(kept.calls == ["start One"])
    #expect(removed.calls.isEmpty)
  }

  @Test("Commands parse as typed, and bad ones say what is wrong")
  func commands() throws {
    #expect(try Command(parsing: "play 2") == .play(2))
    #expect(try Command(parsing: "  Pause ") == .pause)
    #expect(try Command(parsing: "next") == .next)
    #expect(try Command(parsing: "") == nil)
    #expect(try Command(parsing: "# a comment") == nil)
    #expect(throws: Command.ParseError.self) { try Command(parsing: "play") }
    #expect(throws: Command.ParseError.self) { try Command(parsing: "play zero") }
    #expect(throws: Command.ParseError.self) { try Command(parsing: "play 0") }
    #expect(throws: Command.ParseError.self) { try Command(parsing: "stop now") }
    #expect(try Command(parsing: "wait 30") == .wait(.seconds(30)))
    #expect(try Command(parsing: "volume 1") == .volume(#require(AudioPlayer.Volume(1))))
    for line in ["volume 1.2", "volume loud", "volume", "wait 0", "wait -5", "wait 1 2"] {
      #expect(throws: Command.ParseError.self, "\(line)") { try Command(parsing: line) }
    }
    #expect(
      throws: Command.ParseError(
        line: "volume 2", reason: "volume takes a level from 0 to 1, such as 'volume 0.8'")
    ) { try Command(parsing: "volume 2") }
    #expect(
      Command.ParseError(line: "volume 2", reason: "volume takes a level from 0 to 1").description
        == "'volume 2': volume takes a level from 0 to 1")
    do {
      _ = try Command(parsing: "dance")
      Issue.record("'dance' parsed")
    } catch {
      #expect(error.description.contains("'dance': unknown command"))
    }
  }
}
