// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation
import WeatherStation

/// Replays real hourly weather observations through ``WeatherData`` and its
/// three displays, printing one line per day and a summary.
///
///     weather-station                      one built-in week at JFK
///     weather-station --input FILE         a file with the same columns
///     weather-station --station CODE       only that station's rows
///
/// A row that cannot be read is reported on standard error with its line
/// number and skipped; the rest is replayed and the exit status is 1. A file
/// that cannot be read at all exits with status 2.
@main
struct WeatherStationDemo {
  static func main() {
    let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
    let (text, source) = load(options.input)

    let data = WeatherData()
    // Registered first, so it sees each new day before the displays change.
    let daily = DailyLog()
    data.addObserver(daily)
    let current = CurrentConditionsDisplay(data: data)
    let statistics = StatisticsDisplay(data: data)
    let forecast = ForecastDisplay(data: data)
    daily.displays = { "\(current.text) | \(statistics.text) | \(forecast.text)" }

    print("Replaying \(source)\(options.station.map { ", station \($0)" } ?? "")")
    var summary = ReplaySummary()
    let elapsed: UInt64
    do {
      let start = DispatchTime.now().uptimeNanoseconds
      summary = try data.replay(csv: text, station: options.station) { error in
        printError("\(source): \(error)")
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
      "Replay took \(String(format: "%.1f", milliseconds)) ms, reading and broadcasting to 4 observers."
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

  static func load(_ path: String?) -> (text: String, source: String) {
    guard let path else { return (DefaultObservations.csv, "one week at JFK (built in)") }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      fail("\(path): no such file", status: 2)
    }
    guard !isDirectory.boolValue, let contents = FileManager.default.contents(atPath: path) else {
      fail("\(path): cannot be read", status: 2)
    }
    return (String(decoding: contents, as: UTF8.self), path)
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
/// of it.
final class DailyLog: WeatherDataObserver {
  var displays: () -> String = { "" }
  private var day: (station: String, date: String)?

  func weatherData(_ data: WeatherData, didRecord measurement: WeatherMeasurement) {
    let next = (measurement.station, measurement.time.date)
    if let day, day != next { printDay() }
    day = next
  }

  func finish() {
    if day != nil { printDay() }
  }

  private func printDay() {
    guard let day else { return }
    print("\(day.date) \(day.station) | \(displays())")
  }
}
