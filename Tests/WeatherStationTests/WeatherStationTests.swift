// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing
import WeatherStation

func measurement(
  _ hour: Int, temperature: Double?, pressure: Double?, day: Int = 1, station: String = "JFK"
) -> WeatherMeasurement {
  WeatherMeasurement(
    station: station, time: ObservationTime(year: 2013, month: 1, day: day, hour: hour),
    temperature: temperature, humidity: 50, pressure: pressure)
}

/// Records what it is told, on the main actor, as the displays hear it.
@MainActor
final class MeasurementLog: WeatherDataObserver {
  var measurements: [WeatherMeasurement] = []
  var rejected: [ObservationCSV.RowError] = []
  var hours: [Int] { measurements.map(\.time.hour) }

  func weatherData(_ data: WeatherData, didRecord measurement: WeatherMeasurement) {
    measurements.append(measurement)
  }

  func weatherData(_ data: WeatherData, didReject row: ObservationCSV.RowError) {
    rejected.append(row)
  }
}

/// What a replay returned, and what an observer heard of it.
struct Replayed {
  var summary: ReplaySummary
  var measurements: [WeatherMeasurement]
  var rejected: [ObservationCSV.RowError]
  /// The weather data's last measurement once the replay returned.
  var latest: WeatherMeasurement?
}

/// Replays `text` into new weather data, with a log listening.
@MainActor
func replay(_ text: String, station: String? = nil) async throws(ObservationCSV.HeaderError)
  -> Replayed
{
  let data = WeatherData()
  let log = MeasurementLog()
  data.addObserver(log)
  let summary = try await data.replay(csv: text, station: station)
  return Replayed(
    summary: summary, measurements: log.measurements, rejected: log.rejected,
    latest: await data.latest)
}

@Suite("Weather station")
@MainActor
struct WeatherStationTests {
  @Test("Every observer gets every measurement, in order")
  func broadcast() async {
    let data = WeatherData()
    let (a, b) = (MeasurementLog(), MeasurementLog())
    data.addObserver(a)
    data.addObserver(b)
    for hour in 0..<3 { await data.record(measurement(hour, temperature: 30, pressure: 1000)) }
    await waitForDeliveries()
    #expect(a.hours == [0, 1, 2])
    #expect(b.hours == [0, 1, 2])
  }

  @Test("Statistics compute min, average and max, skipping missing temperatures")
  func statistics() async {
    let data = WeatherData()
    let display = StatisticsDisplay(data: data)
    #expect(display.text == "no temperature yet")
    for (hour, temperature) in [(0, 30.0), (1, nil), (2, 40.0), (3, 35.5)] {
      await data.record(measurement(hour, temperature: temperature, pressure: nil))
    }
    await waitForDeliveries()
    #expect(display.minimum == 30)
    #expect(display.maximum == 40)
    #expect(display.count == 3)
    #expect(display.text == "min 30.0°F, avg 35.2°F, max 40.0°F")
  }

  @Test("Current conditions show the latest values and say what is missing")
  func currentConditions() async {
    let data = WeatherData()
    let display = CurrentConditionsDisplay(data: data)
    await data.record(measurement(0, temperature: 39.02, pressure: 1012.34))
    await waitForDeliveries()
    #expect(display.text == "now 39.0°F, 50% humidity, 1012.3 hPa")
    await data.record(measurement(1, temperature: nil, pressure: nil))
    await waitForDeliveries()
    #expect(display.text == "now temperature unknown, 50% humidity, pressure unknown")
  }

  @Test(
    "The forecast follows the three-hour pressure trend",
    arguments: [
      ([1000.0, 1000.5, 1001.2], ForecastDisplay.Forecast.improving),
      ([1000.0, 999.5, 998.9], .coolerAndWetter),
      ([1000.0, 1000.4, 999.8], .moreOfTheSame),
      ([1000.0], .unknown),
    ])
  func forecast(pressures: [Double], expected: ForecastDisplay.Forecast) async {
    let data = WeatherData()
    let display = ForecastDisplay(data: data)
    for (hour, pressure) in pressures.enumerated() {
      await data.record(measurement(hour, temperature: 30, pressure: pressure))
    }
    await waitForDeliveries()
    #expect(display.forecast == expected)
  }

  @Test("The forecast skips readings without pressure and restarts after a gap")
  func forecastGaps() async {
    let data = WeatherData()
    let display = ForecastDisplay(data: data)
    await data.record(measurement(0, temperature: 30, pressure: 1000))
    await data.record(measurement(1, temperature: 30, pressure: nil))
    await data.record(measurement(2, temperature: 30, pressure: 1002))
    await waitForDeliveries()
    #expect(display.forecast == .improving)
    await data.record(measurement(10, temperature: 30, pressure: 990))
    await waitForDeliveries()
    #expect(display.forecast == .unknown)
    await data.record(measurement(11, temperature: 30, pressure: 990, station: "LGA"))
    await waitForDeliveries()
    #expect(display.forecast == .unknown)
  }

  @Test("Displays register in their initializer and stop counting once released")
  func displayLifetimes() async {
    let data = WeatherData()
    var displays: [any WeatherDataObserver]? = [
      CurrentConditionsDisplay(data: data), StatisticsDisplay(data: data),
      ForecastDisplay(data: data),
    ]
    #expect(data.observerCount == 3)
    await data.record(measurement(0, temperature: 30, pressure: 1000))
    await waitForDeliveries()
    displays = nil
    #expect(data.observerCount == 0)
    await data.record(measurement(1, temperature: 30, pressure: 1000))
    await waitForDeliveries()
    _ = displays
  }

  @Test("A display attached while data flows sees only what follows")
  func attachWhileFlowing() async {
    let data = WeatherData()
    // Its broadcast may still be on its way to the main actor: the display
    // made next does not hear it all the same.
    await data.record(measurement(0, temperature: 10, pressure: 1000))
    let statistics = StatisticsDisplay(data: data)
    await data.record(measurement(1, temperature: 20, pressure: 1000))
    await waitForDeliveries()
    #expect(statistics.minimum == 20)
    #expect(statistics.count == 1)
  }

  @Test("Time counts hours across months and years, for gaps")
  func hoursSinceEpoch() {
    let newYear = ObservationTime(year: 2013, month: 1, day: 1, hour: 0)
    let eve = ObservationTime(year: 2012, month: 12, day: 31, hour: 23)
    #expect(newYear.hoursSinceEpoch - eve.hoursSinceEpoch == 1)
    #expect(ObservationTime(year: 1970, month: 1, day: 1, hour: 5).hoursSinceEpoch == 5)
    #expect(
      ObservationTime(year: 2013, month: 3, day: 1, hour: 0).hoursSinceEpoch
        - ObservationTime(year: 2013, month: 2, day: 28, hour: 0).hoursSinceEpoch == 24)
    #expect(eve < newYear)
    #expect(newYear.description == "2013-01-01 00:00")
  }
}

@Suite("Reading observations")
@MainActor
struct ObservationCSVTests {
  static let header =
    "origin,year,month,day,hour,temp,dewp,humid,wind_dir,wind_speed,wind_gust,precip,pressure,visib,time_hour"

  @Test("A good file replays every row; NA values are missing, not errors")
  func goodRows() async throws {
    let text = """
      \(Self.header)
      JFK,2013,1,1,1,39.02,26.06,59.37,270,10.3,NA,0,1012,10,2013-01-01T06:00:00Z
      JFK,2013,1,1,2,NA,26.96,61.63,250,8.05,NA,0,NA,10,2013-01-01T07:00:00Z

      """
    let replayed = try await replay(text)
    let summary = replayed.summary
    #expect(summary.rowsRead == 2 && summary.rowsReplayed == 2)
    #expect(summary.rowsWithoutPressure == 1 && summary.rowsRejected == 0)
    #expect(replayed.latest?.temperature == nil)
    #expect(replayed.measurements.map(\.time.hour) == [1, 2])
    #expect(replayed.rejected.isEmpty)
  }

  @Test(
    "Bad rows are rejected with their line number and the reason",
    arguments: [
      ("JFK,2013,1,1", "expected 15 fields as in the header, found 4"),
      (
        "JFK,2013,13,1,1,39,26,59,270,10,NA,0,1012,10,x",
        "month is '13', not a whole number from 1 to 12"
      ),
      ("JFK,2013,2,30,1,39,26,59,270,10,NA,0,1012,10,x", "2013-2-30 is not a date"),
      (
        "JFK,2013,1,1,1,warm,26,59,270,10,NA,0,1012,10,x", "temp is 'warm', neither a number nor NA"
      ),
      ("JFK,2013,1,1,1,nan,26,59,270,10,NA,0,1012,10,x", "temp is 'nan', neither a number nor NA"),
      (
        "JFK,2013,1,1,1,39,26,59,270,10,NA,0,5000,10,x",
        "pressure 5000 is outside 850.0 to 1100.0 hPa"
      ),
      (
        ",2013,1,1,1,39,26,59,270,10,NA,0,1012,10,x", "origin is '', not a station code such as JFK"
      ),
    ])
  func badRows(row: String, reason: String) async throws {
    let replayed = try await replay(
      "\(Self.header)\n\(row)\nJFK,2013,1,1,1,39,26,59,270,10,NA,0,1012,10,x")
    #expect(replayed.rejected.map(\.line) == [2])
    #expect(replayed.rejected.map(\.reason) == [reason])
    #expect(replayed.summary.rowsRejected == 1 && replayed.summary.rowsReplayed == 1)
  }

  @Test("An overlong line is rejected without reading it")
  func hugeField() async throws {
    let row =
      "JFK,2013,1,1,1," + String(repeating: "9", count: 100_000) + ",26,59,270,10,NA,0,1012,10,x"
    let replayed = try await replay("\(Self.header)\n\(row)")
    #expect(replayed.rejected.first?.reason.contains("bytes long") == true)
  }

  @Test("A file without a usable header is refused")
  func badHeader() async {
    await #expect(throws: ObservationCSV.HeaderError.self) {
      try await WeatherData().replay(csv: "")
    }
    await #expect(throws: ObservationCSV.HeaderError.self) {
      try await WeatherData().replay(csv: "a,b,c\n1,2,3")
    }
    await #expect(throws: ObservationCSV.HeaderError.self) {
      try await WeatherData().replay(csv: "origin,origin,year,month,day,hour,temp,humid,pressure")
    }
  }

  @Test("Only the chosen station is replayed")
  func stationFilter() async throws {
    let text = """
      \(Self.header)
      EWR,2013,1,1,1,39,26,59,270,10,NA,0,1012,10,x
      JFK,2013,1,1,1,40,26,59,270,10,NA,0,1012,10,x
      """
    let replayed = try await replay(text, station: "JFK")
    #expect(replayed.summary.rowsReplayed == 1 && replayed.summary.rowsFromOtherStations == 1)
    #expect(replayed.latest?.station == "JFK")
    #expect(replayed.measurements.map(\.station) == ["JFK"])
  }
}

/// A small deterministic generator, so that a failing run can be repeated.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite("Reading hostile input")
@MainActor
struct ObservationCSVFuzzTests {
  /// A good row for a random hour, with some values missing.
  static func goodRow(_ random: inout SeededGenerator) -> String {
    func maybe(_ value: String) -> String { random.next() % 5 == 0 ? "NA" : value }
    let month = Int(random.next() % 12) + 1
    let day = Int(random.next() % 28) + 1
    let hour = Int(random.next() % 24)
    let temperature = Double(Int(random.next() % 1_200)) / 10 - 20
    let humidity = Double(random.next() % 1_000) / 10
    let pressure = 980 + Double(random.next() % 600) / 10
    return
      "JFK,2013,\(month),\(day),\(hour),\(maybe("\(temperature)")),1,\(maybe("\(humidity)")),1,1,NA,0,\(maybe("\(pressure)")),10,x"
  }

  /// A row that must be rejected: garbage, truncated, stretched or overlong.
  static func badRow(_ random: inout SeededGenerator) -> String {
    let good = goodRow(&random)
    switch random.next() % 5 {
    case 0:
      // Random printable bytes and control characters, no line break and no
      // quote (a quote may open a field that runs across lines, as the
      // quoting tests check).
      let bytes = (0..<Int(random.next() % 80) + 1).map { _ in UInt8(random.next() % 254) + 1 }
        .filter { !"\n\r\"".utf8.contains($0) }
      let text = String(decoding: bytes, as: UTF8.self)
      return text.allSatisfy(\.isWhitespace) ? "\u{1}" : text
    case 1: return String(good.prefix(Int(random.next() % UInt64(good.count - 20)) + 1))
    case 2: return good + ",extra"
    case 3:
      return "JFK,2013," + String(repeating: "9", count: 10_000) + ",1,1,1,1,1,1,1,NA,0,1000,10,x"
    default: return good.replacing("JFK,2013,", with: "JFK,20x3,")
    }
  }

  @Test("Random bad rows are rejected by line, every good row is replayed", arguments: 1...40)
  func hostileFile(seed: Int) async throws {
    var random = SeededGenerator(state: UInt64(seed))
    var lines = [ObservationCSVTests.header]
    var badLines: [Int] = []
    var goodCount = 0
    for _ in 0..<200 {
      if random.next() % 4 == 0 {
        lines.append(Self.badRow(&random))
        badLines.append(lines.count)
      } else if random.next() % 20 == 0 {
        lines.append("")
      } else {
        lines.append(Self.goodRow(&random))
        goodCount += 1
      }
    }
    let replayed = try await replay(lines.joined(separator: "\n"))
    #expect(replayed.rejected.map(\.line) == badLines, "seed \(seed)")
    #expect(replayed.summary.rowsReplayed == goodCount, "seed \(seed)")
    #expect(replayed.summary.rowsRejected == badLines.count)
    #expect(replayed.measurements.count == goodCount, "seed \(seed)")
  }

  @Test("Random bytes as a whole file never crash the reader", arguments: 1...40)
  func randomBytes(seed: Int) async {
    var random = SeededGenerator(state: UInt64(seed) &* 31)
    let bytes = (0..<Int(random.next() % 4_000)).map { _ in UInt8(truncatingIfNeeded: random.next())
    }
    let text = String(decoding: bytes, as: UTF8.self)
    // Either the header is refused or every row is accounted for.
    if let replayed = try? await replay(text) {
      let summary = replayed.summary
      #expect(summary.rowsReplayed + summary.rowsRejected == summary.rowsRead)
      #expect(replayed.measurements.count == summary.rowsReplayed)
      #expect(replayed.rejected.count == summary.rowsRejected)
    }
  }

  @Test("A file of only a header, or only blank lines, replays nothing")
  func emptyFiles() async throws {
    let summary = try await WeatherData().replay(csv: ObservationCSVTests.header + "\n\n\n")
    #expect(summary == ReplaySummary())
    await #expect(throws: ObservationCSV.HeaderError.self) {
      try await WeatherData().replay(csv: "\n\n")
    }
  }
}
