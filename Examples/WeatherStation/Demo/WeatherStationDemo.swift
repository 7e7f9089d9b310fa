// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import WeatherStation

/// Replays real hourly weather observations through ``WeatherData`` to its
/// four observers (three displays and a daily log), printing one line per day
/// and a summary.
///
///     weather-station                      one built-in week at JFK
///     weather-station --input FILE         a file with the same columns
///     weather-station --station CODE       only that station's rows
///
/// The file is read a chunk at a time, so its size does not matter. It may
/// have LF or CRLF line endings, a UTF-8 byte-order mark and RFC 4180 quoted
/// fields (see ``CSVReader``).
///
/// The file is read and parsed on the weather data's actor; the observers
/// live on the main actor, where the demo runs, and hear each row there, in
/// the order of the file.
///
/// A row that cannot be read is reported on standard error with its line
/// number and skipped; the rest is replayed and the exit status is 1. A file
/// that cannot be read at all exits with status 2.
@main
struct WeatherStationDemo {
  @MainActor
  static func main() async {
    let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
    let input = options.input.map(InputFile.init(opening:))
    let source = options.input ?? "one week at JFK (built in)"

    let data = WeatherData()
    // Registered first, so it sees each new day before the displays change.
    let daily = DailyLog(source: source)
    data.addObserver(daily)
    let current = CurrentConditionsDisplay(data: data)
    let statistics = StatisticsDisplay(data: data)
    let forecast = ForecastDisplay(data: data)
    daily.displays = { "\(current.text) | \(statistics.text) | \(forecast.text)" }
    // Counted now: observers are held weakly, and an optimized build may
    // release them after their last use, before the summary is printed.
    let observerCount = data.observerCount

    print("Replaying \(source)\(options.station.map { ", station \($0)" } ?? "")")
    let summary: ReplaySummary
    let elapsed: UInt64
    do {
      let start = DispatchTime.now().uptimeNanoseconds
      // The replay returns once the observers have heard every row.
      if let input {
        summary = try await data.replay(station: options.station) { try input.read(into: $0) }
      } else {
        summary = try await data.replay(csv: DefaultObservations.csv, station: options.station)
      }
      elapsed = DispatchTime.now().uptimeNanoseconds - start
    } catch {
      fail("\(source): \(error)", status: 2)
    }
    daily.finish()

    print("")
    print("Rows read: \(summary.rowsRead)")
    print("Rows replayed: \(summary.rowsReplayed)")
    print("Rows without pressure: \(summary.rowsWithoutPressure)")
    print("Rows rejected: \(summary.rowsRejected)")
    if options.station != nil {
      print("Rows from other stations: \(summary.rowsFromOtherStations)")
    }
    let milliseconds = Double(elapsed) / 1e6
    print(
      "Replay took \(String(format: "%.1f", milliseconds)) ms, reading and broadcasting to"
        + " \(observerCount) observers: three displays and the daily log."
    )

    if let station = options.station, summary.rowsReplayed == 0 {
      printError("no rows from station '\(station)' in \(source)")
    }
    let failed = summary.rowsRejected > 0 || (options.station != nil && summary.rowsReplayed == 0)
    exit(failed ? 1 : 0)
  }

  struct Options {
    var input: String?
    var station: String?
  }

  static let usage = "usage: weather-station [--input FILE] [--station CODE]"

  static func parseOptions(_ arguments: [String]) -> Options {
    var options = Options()
    var remaining = arguments[...]
    while let option = remaining.popFirst() {
      switch option {
      case "--input", "--station":
        guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
          fail("\(option) needs a value\n\(usage)", status: 2)
        }
        if option == "--input" { options.input = value } else { options.station = value }
      case "--help", "-h":
        print(usage)
        exit(0)
      default:
        fail("unknown option '\(option)'\n\(usage)", status: 2)
      }
    }
    return options
  }

  /// The file to replay, open for reading until it is released.
  ///
  /// It is not `Sendable`: the replay takes the one closure that reads it
  /// over to the weather data's actor, and reads it there.
  final class InputFile {
    private let file: UnsafeMutablePointer<FILE>

    /// Opens the file, or exits saying why it cannot be read.
    init(opening path: String) {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        fail("\(path): no such file", status: 2)
      }
      guard !isDirectory.boolValue, let file = fopen(path, "rb") else {
        fail("\(path): cannot be read", status: 2)
      }
      self.file = file
    }

    deinit { fclose(file) }

    /// Fills `buffer` with the next bytes of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
      let count = fread(buffer.baseAddress, 1, buffer.count, file)
      if count == 0, ferror(file) != 0 { throw ReadError(errno: errno) }
      return count
    }
  }

  /// Reading the file failed part way.
  struct ReadError: Error, CustomStringConvertible {
    var errno: Int32
    var description: String { "reading failed: \(String(cString: strerror(errno)))" }
  }

  static func printError(_ message: String) {
    FileHandle.standardError.write(Data("weather-station: \(message)\n".utf8))
  }

  static func fail(_ message: String, status: Int32) -> Never {
    printError(message)
    exit(status)
  }
}

/// Prints one line per station and day: what the displays showed at the end
/// of it; and each rejected row, on standard error, where it came in the
/// file.
@MainActor
final class DailyLog: WeatherDataObserver {
  /// What the rows come from, named in each rejection.
  let source: String
  var displays: () -> String = { "" }
  /// The station and the day being logged; the hour is not compared.
  private var day: (station: String, time: ObservationTime)?

  init(source: String) {
    self.source = source
  }

  func weatherData(_ data: WeatherData, didRecord measurement: WeatherMeasurement) {
    let time = measurement.time
    if let day,
      day.station != measurement.station || day.time.day != time.day
        || day.time.month != time.month || day.time.year != time.year
    {
      printDay()
    }
    day = (measurement.station, time)
  }

  func weatherData(_ data: WeatherData, didReject row: ObservationCSV.RowError) {
    WeatherStationDemo.printError("\(source): \(row)")
  }

  func finish() {
    if day != nil { printDay() }
  }

  private func printDay() {
    guard let day else { return }
    print("\(day.time.date) \(day.station) | \(displays())")
  }
}
