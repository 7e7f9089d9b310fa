// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast
import Testing
import WeatherStation

/// One thing an observer heard.
struct Heard: Equatable, CustomStringConvertible {
  enum Event: Equatable {
    case recorded(ObservationTime)
    case rejected(line: Int)
  }

  var observer: String
  var event: Event

  var description: String { "\(observer): \(event)" }
}

/// Writes down what it hears, in a journal it may share with other
/// observers, after checking that it hears it on the main actor.
@MainActor
final class JournalingObserver: WeatherDataObserver {
  let name: String
  let journal: Journal

  init(_ name: String, journal: Journal) {
    self.name = name
    self.journal = journal
  }

  func weatherData(_ data: WeatherData, didRecord measurement: WeatherMeasurement) {
    MainActor.preconditionIsolated("an observer heard a measurement off the main actor")
    journal.entries.append(Heard(observer: name, event: .recorded(measurement.time)))
  }

  func weatherData(_ data: WeatherData, didReject row: ObservationCSV.RowError) {
    MainActor.preconditionIsolated("an observer heard a rejection off the main actor")
    journal.entries.append(Heard(observer: name, event: .rejected(line: row.line)))
  }
}

/// What observers heard, in the order they heard it.
@MainActor
final class Journal {
  var entries: [Heard] = []
}

@Suite("Delivery to the main actor")
@MainActor
struct DeliveryTests {
  /// A file of `count` rows an hour apart, every 53rd broken, and what each
  /// observer should hear of it, in order.
  static func file(rows count: Int) -> (text: String, events: [Heard.Event]) {
    var lines = [ObservationCSVTests.header]
    var events: [Heard.Event] = []
    for index in 0..<count {
      if index % 53 == 7 {
        lines.append("JFK,2013,1")
        events.append(.rejected(line: lines.count))
        continue
      }
      let time = ObservationTime(
        year: 2013 + index / 8_064, month: 1 + index / 672 % 12, day: 1 + index / 24 % 28,
        hour: index % 24)
      lines.append(
        "JFK,\(time.year),\(time.month),\(time.day),\(time.hour),30,26,59,270,10,NA,0,1012,10,x")
      events.append(.recorded(time))
    }
    return (lines.joined(separator: "\n") + "\n", events)
  }

  /// Replays `bytes` into `data`, `chunk` bytes at a time at most, checking
  /// that the replay reads them on the weather data's actor.
  ///
  /// Nonisolated, so it runs where its caller runs: on the main actor, or in
  /// a detached task.
  nonisolated static func replay(_ bytes: [UInt8], chunk: Int, into data: WeatherData)
    async throws -> ReplaySummary
  {
    var offset = 0
    return try await data.replay { buffer in
      data.preconditionIsolated("the replay read off the weather data's actor")
      let size = min(chunk, buffer.count, bytes.count - offset)
      buffer.copyBytes(from: bytes[offset..<offset + size])
      offset += size
      return size
    }
  }

  /// Whether the replay starts on the main actor or in a detached task,
  /// the rows are read on the weather data's actor.
  @Test(
    "Observers hear each row on the main actor; the weather data reads it on its own",
    arguments: [false, true])
  func isolation(fromDetachedTask: Bool) async throws {
    let (text, events) = Self.file(rows: 2_000)
    let bytes = Array(text.utf8)
    let data = WeatherData()
    let journal = Journal()
    let observer = JournalingObserver("log", journal: journal)
    data.addObserver(observer)
    let statistics = StatisticsDisplay(data: data)
    let summary =
      if fromDetachedTask {
        try await Task.detached { try await Self.replay(bytes, chunk: 4_096, into: data) }.value
      } else {
        try await Self.replay(bytes, chunk: 4_096, into: data)
      }
    #expect(summary.rowsReplayed == events.count { !isRejection($0) })
    #expect(journal.entries.map(\.event) == events)
    #expect(statistics.count == summary.rowsReplayed)
    withExtendedLifetime(observer) {}
  }

  /// Observers hear each row in the order they registered, and rejected
  /// rows in their place.
  @Test("Every row has reached every observer, in the order of the file, when the replay returns")
  func order() async throws {
    // About 280 KB: the replay waits for its observers after each 64 KiB.
    let (text, events) = Self.file(rows: 6_000)
    let data = WeatherData()
    let journal = Journal()
    let observers = ["first", "second", "third"].map { JournalingObserver($0, journal: journal) }
    for observer in observers { data.addObserver(observer) }
    let summary = try await Self.replay(Array(text.utf8), chunk: 10_007, into: data)
    #expect(summary.rowsRead == events.count)
    #expect(summary.rowsRejected == events.count(where: isRejection))
    let expected = events.flatMap { event in
      observers.map { Heard(observer: $0.name, event: event) }
    }
    #expect(journal.entries.count == expected.count)
    #expect(journal.entries == expected)
    withExtendedLifetime(observers) {}
  }

  @Test("Measurements recorded one by one arrive in order once delivery is awaited")
  func recordThenWait() async {
    let data = WeatherData()
    let journal = Journal()
    let observer = JournalingObserver("log", journal: journal)
    data.addObserver(observer)
    let times = (0..<500).map {
      ObservationTime(year: 2013, month: 1, day: 1 + $0 / 24, hour: $0 % 24)
    }
    for time in times {
      await data.record(
        WeatherMeasurement(
          station: "JFK", time: time, temperature: 30, humidity: 50, pressure: 1000))
    }
    await waitForDeliveries()
    #expect(journal.entries.map(\.event) == times.map { .recorded($0) })
    withExtendedLifetime(observer) {}
  }
}

private func isRejection(_ event: Heard.Event) -> Bool {
  if case .rejected = event { true } else { false }
}
