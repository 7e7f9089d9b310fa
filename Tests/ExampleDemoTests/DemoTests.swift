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

/// Runs a demo to its end.
///
/// Its output goes to temporary files, which never
/// fill up as a pipe can.
func run(_ demo: String, _ arguments: [String] = [], input: String = "") throws -> Run {
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
  process.executableURL = productsFolder.appendingPathComponent(demo)
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
  }

  @Test(
    "It replays the full year of real observations",
    .enabled(if: FileManager.default.fileExists(atPath: fullYear.path)))
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
    .enabled(if: FileManager.default.fileExists(atPath: fullYear.path)))
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
    #expect(result.errors.contains("line 2: unknown command 'frobnicate'"))
    #expect(result.errors.contains("line 4: there is no item 7: the playlist has 3 items"))
    #expect(result.output.contains("  [❚❚ So What]"))
    #expect(!result.output.contains("Blue in Green (5:37)"))  // after quit
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
