// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import AudioPlayer
import Foundation

/// Plays a session on an ``AudioPlayer`` with three observers that print.
///
///     audio-player                  a built-in session that shows every observer
///     audio-player --commands -     commands from standard input, one per line
///     audio-player --commands FILE  commands from a file
///
/// Commands: play N, pause, resume, next, stop, quit. An unknown command is
/// reported on standard error with its line number, and the session goes on;
/// the exit status is then 1.
@main
struct AudioPlayerDemo {
  static let playlist = [
    AudioPlayer.Item(title: "Blue in Green", duration: .seconds(337)),
    AudioPlayer.Item(title: "So What", duration: .seconds(562)),
    AudioPlayer.Item(title: "Freddie Freeloader", duration: .seconds(586)),
  ]

  static let script = [
    "play 1", "pause", "pause", "resume", "next", "next", "next", "play 2", "stop",
  ]

  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let lines: [String]
    switch arguments.count {
    case 0:
      lines = script
    case 2 where arguments[0] == "--commands":
      guard let text = read(arguments[1]) else {
        fail("cannot read commands from '\(arguments[1])'", status: 2)
      }
      lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    default:
      fail("usage: audio-player [--commands FILE | --commands -]", status: 2)
    }

    let player = AudioPlayer(playlist: playlist)
    let views: [any AudioPlayerObserver] = [
      NowPlayingView { print("  \($0)") },
      PlaylistView { print($0.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n")) },
      MiniPlayer { print("  \($0)") },
    ]
    for view in views { player.addObserver(view) }

    var failures = 0
    for (number, line) in zip(1..., lines) {
      do {
        guard let command = try Command(parsing: line) else { continue }
        print("> \(line.trimmingCharacters(in: .whitespaces))")
        if command == .quit { break }
        try player.perform(command)
      } catch {
        failures += 1
        printError("line \(number): \(error)")
      }
    }
    withExtendedLifetime(views) {}
    exit(failures == 0 ? 0 : 1)
  }

  static func read(_ path: String) -> String? {
    let data =
      path == "-"
      ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: path)
    return data.map { String(decoding: $0, as: UTF8.self) }
  }

  static func printError(_ message: String) {
    FileHandle.standardError.write(Data("audio-player: \(message)\n".utf8))
  }

  static func fail(_ message: String, status: Int32) -> Never {
    printError(message)
    exit(status)
  }
}
