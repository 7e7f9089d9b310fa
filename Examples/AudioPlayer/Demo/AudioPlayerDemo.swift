// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import AudioPlayer
import Foundation
import Multicast

/// Plays a session on an ``AudioPlayer`` with three observers that print.
///
/// `audio-player --help` prints ``usage``: the options, the commands and the
/// exit statuses. Each line is answered before the next is read; `quit` ends
/// the session at once. Lines may end in "\n" or "\r\n". A line that is not
/// a command is reported on standard error with its line number and what is
/// wrong with it, and the session goes on. Each command is echoed after a
/// "> " unless standard input is a terminal, which shows it already.
@main
struct AudioPlayerDemo {
  static let playlist = [
    AudioPlayer.Item(title: "Blue in Green", duration: .seconds(337)),
    AudioPlayer.Item(title: "So What", duration: .seconds(562)),
    AudioPlayer.Item(title: "Freddie Freeloader", duration: .seconds(586)),
  ]

  static let script = [
    "play 1", "volume 0.8", "wait 30", "pause", "pause", "resume", "next", "wait 600", "next",
    "play 2", "stop",
  ]

  static let usage = """
    usage: audio-player [--commands FILE | --commands - | --help]

      audio-player                  a built-in session that shows every observer
      audio-player --commands -     commands from standard input, one per line
      audio-player --commands FILE  commands from a file
      audio-player --help           this text

    commands:
      play N     play item N of the playlist (from 1)
      pause      pause playback
      resume     resume playback
      next       skip to the next item
      stop       stop playback
      volume L   set the volume, from 0 to 1
      wait S     let S seconds of playback pass
      quit       end the session

    exit status: 0 when every command succeeded, 1 when a line failed (the
    session goes on after it), 2 for bad options or an unreadable file.
    """

  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let nextLine: () -> String?
    var echoes = true
    switch arguments.count {
    case 0:
      var lines = script.makeIterator()
      nextLine = { lines.next() }
    case 1 where arguments[0] == "--help" || arguments[0] == "-h":
      print(usage)
      exit(0)
    case 2 where arguments[0] == "--commands":
      if arguments[1] != "-" { readStandardInput(from: arguments[1]) }
      // A terminal shows what the person types; echoing it would show it
      // twice.
      echoes = isatty(STDIN_FILENO) == 0
      // One line at a time, so that a person at a terminal sees each answer
      // as they type. `readLine` strips "\n" and "\r\n" alike.
      nextLine = { readLine(strippingNewline: true) }
    default:
      fail("unknown options '\(arguments.joined(separator: " "))'\n\(usage)", status: 2)
    }
    let failures = await play(nextLine, echoes: echoes)
    exit(failures == 0 ? 0 : 1)
  }

  /// Runs the session on the main actor, where the views live, while the
  /// player plays on its own actor, echoing each command if `echoes`;
  /// returns how many lines failed.
  ///
  /// The player and its views end with this function, before the process
  /// exits, so nothing is left alive at exit.
  @MainActor
  static func play(_ nextLine: () -> String?, echoes: Bool) async -> Int {
    let player = AudioPlayer(playlist: playlist)
    let views: [AnyObject] = [
      NowPlayingView(player: player) { print("  \($0)") },
      PlaylistView(player: player) {
        print($0.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n"))
      },
      MiniPlayer(player: player) { print("  \($0)") },
    ]

    var failures = 0
    var number = 0
    while let line = nextLine() {
      number += 1
      do {
        guard let command = try Command(parsing: line) else { continue }
        if echoes { print("> \(line.trimmingCharacters(in: .whitespacesAndNewlines))") }
        if command == .quit { break }
        try await player.perform(command)
      } catch {
        failures += 1
        printError("line \(number): \(error)")
      }
      // The player has done the command: wait until the views have shown
      // it, so that the line is answered before the next is read.
      await waitForDeliveries()
      // Answer now, even when standard output is a pipe and not a terminal.
      fflush(nil)
    }
    withExtendedLifetime(views) {}
    return failures
  }

  /// Makes the file at `path` the standard input, or stops with a clear
  /// message.
  static func readStandardInput(from path: String) {
    let file = open(path, O_RDONLY)
    guard file >= 0, dup2(file, STDIN_FILENO) >= 0 else {
      fail("cannot read commands from '\(path)': \(String(cString: strerror(errno)))", status: 2)
    }
    close(file)
  }

  static func printError(_ message: String) {
    FileHandle.standardError.write(Data("audio-player: \(message)\n".utf8))
  }

  static func fail(_ message: String, status: Int32) -> Never {
    printError(message)
    exit(status)
  }
}
