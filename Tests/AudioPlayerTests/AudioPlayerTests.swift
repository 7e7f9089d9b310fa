// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import AudioPlayer
import Testing

/// Records every call an observer gets, in order.
final class CallRecorder: AudioPlayerObserver {
  var calls: [String] = []
  func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item) {
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
struct AudioPlayerTests {
  @Test("Observers get one call per change of state, in order")
  func transitions() throws {
    let player = AudioPlayer(playlist: songs)
    let recorder = CallRecorder()
    player.addObserver(recorder)
    try player.play(at: 0)
    player.pause()
    player.resume()
    player.next()
    player.next()
    #expect(recorder.calls == ["start One", "pause One", "resume One", "start Two", "stop"])
    #expect(player.state == .idle)
  }

  @Test("Requests that change nothing broadcast nothing")
  func harmlessRequests() throws {
    let player = AudioPlayer(playlist: songs)
    let recorder = CallRecorder()
    player.addObserver(recorder)
    player.pause()
    player.resume()
    player.stop()
    try player.play(at: 1)
    player.resume()
    player.pause()
    player.pause()
    #expect(recorder.calls == ["start Two", "pause Two"])
    #expect(player.state == .paused(songs[1]))
  }

  @Test("Playing past the end of the playlist is an error that says why")
  func noSuchItem() {
    let player = AudioPlayer(playlist: songs)
    #expect(throws: AudioPlayer.Error.noSuchItem(position: 5, playlistCount: 2)) {
      try player.play(at: 5)
    }
    #expect(
      "\(AudioPlayer.Error.noSuchItem(position: 5, playlistCount: 2))"
        == "there is no item 6: the playlist has 2 items")
  }

  @Test("Each view renders only the changes it implements")
  func views() throws {
    var lines: [String] = []
    let player = AudioPlayer(playlist: songs)
    let nowPlaying = NowPlayingView { lines.append("now: " + $0) }
    let playlist = PlaylistView { lines.append("list: " + $0) }
    let mini = MiniPlayer { lines.append("mini: " + $0) }
    for view in [nowPlaying, playlist, mini] as [any AudioPlayerObserver] {
      player.addObserver(view)
    }
    try player.play(at: 1)
    player.pause()
    player.stop()
    #expect(
      lines == [
        "now: Now playing: Two (3:07)",
        "list: Playlist:\n  1. One\n▶ 2. Two",
        "mini: [▶ Two]",
        "mini: [❚❚ Two]",
        "list: Playlist:\n  1. One\n  2. Two",
        "mini: [■ stopped]",
      ])
    withExtendedLifetime((nowPlaying, playlist, mini)) {}
  }

  @Test("A removed or deallocated observer hears nothing more")
  func removal() throws {
    let player = AudioPlayer(playlist: songs)
    let kept = CallRecorder()
    let removed = CallRecorder()
    var dropped: CallRecorder? = CallRecorder()
    for observer in [kept, removed, dropped!] { player.addObserver(observer) }
    player.removeObserver(removed)
    dropped = nil
    try player.play(at: 0)
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
    do {
      _ = try Command(parsing: "dance")
      Issue.record("'dance' parsed")
    } catch {
      #expect(error.description.contains("unknown command 'dance'"))
    }
  }
}
