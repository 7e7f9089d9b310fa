// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing
import WeatherStation

/// The ways other tools write the same table.
enum Dialect: String, CaseIterable, CustomTestStringConvertible {
  case plain, crlf, byteOrderMark, quoted, all

  var testDescription: String { rawValue }

  /// `rows` (the header first) written in this dialect.
  ///
  /// Quoted files quote every field, as RFC 4180 allows, and put a comma, a
  /// doubled quote and a line break inside the last field, which no required
  /// column reads.
  func write(_ rows: [[String]]) -> String {
    let quote = self == .quoted || self == .all
    let lineBreak = self == .crlf || self == .all ? "\r\n" : "\n"
    let mark = self == .byteOrderMark || self == .all ? "\u{FEFF}" : ""
    let lines = rows.enumerated().map { number, fields in
      guard quote else { return fields.joined(separator: ",") }
      var fields = fields
      if number > 0 { fields[fields.count - 1] += ", said \"the\nobserver\"" }
      return
        fields
        .map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }
        .joined(separator: ",")
    }
    return mark + lines.joined(separator: lineBreak) + lineBreak
  }
}

/// Replays `text` through ``WeatherData/replay(station:reading:)``, handing
/// it over in chunks of the sizes given, in turn.
@MainActor
func replayInChunks(_ text: String, sizes: [Int], station: String? = nil) async throws -> Replayed {
  let bytes = Array(text.utf8)
  let data = WeatherData()
  let log = MeasurementLog()
  data.addObserver(log)
  var offset = 0
  var turn = 0
  let summary = try await data.replay(station: station) { buffer in
    let size = min(sizes[turn % sizes.count], buffer.count, bytes.count - offset)
    turn += 1
    buffer.copyBytes(from: bytes[offset..<offset + size])
    offset += size
    return size
  }
  return Replayed(
    summary: summary, measurements: log.measurements, rejected: log.rejected,
    latest: await data.latest)
}

@Suite("CSV dialects")
@MainActor
struct CSVDialectTests {
  /// A header and 300 good rows, some with missing values.
  static let table: [[String]] = {
    var random = SeededGenerator(state: 12)
    let header = ObservationCSVTests.header.split(separator: ",").map(String.init)
    return [header]
      + (0..<300).map { _ in
        ObservationCSVFuzzTests.goodRow(&random).split(separator: ",").map(String.init)
      }
  }()

  /// The plain file, replayed.
  static func plain() async throws -> Replayed {
    try await replay(Dialect.plain.write(table))
  }

  @Test("Each dialect replays the same rows as the plain file", arguments: Dialect.allCases)
  func sameRows(dialect: Dialect) async throws {
    let plain = try await Self.plain()
    #expect(plain.summary.rowsReplayed == 300 && plain.summary.rowsRejected == 0)
    #expect(plain.measurements.count == 300)
    let replayed = try await replay(dialect.write(Self.table))
    #expect(replayed.summary == plain.summary)
    #expect(replayed.measurements == plain.measurements)
  }

  @Test(
    "Chunks may split a record anywhere: a CRLF, a doubled quote, the byte-order mark",
    arguments: [[1], [2], [3], [5], [7, 1, 2], [64], [4_000], [1, 65_536]])
  func chunkBoundaries(sizes: [Int]) async throws {
    let plain = try await Self.plain()
    // Each quoted row spans two lines, so the bad row at the end is on line
    // 1 + 2 × 300 + 1.
    let text = Dialect.all.write(Self.table) + "JFK,2013,13,1,1,39,26,59,270,10,NA,0,1012,10,x"
    let replayed = try await replayInChunks(text, sizes: sizes)
    #expect(
      replayed.rejected.map(\.description)
        == ["line 602: month is '13', not a whole number from 1 to 12"])
    #expect(replayed.summary.rowsReplayed == plain.summary.rowsReplayed)
    #expect(replayed.measurements == plain.measurements)
  }

  @Test("Line numbers count the lines inside quoted fields, with any line break")
  func lineNumbersAcrossQuotedLines() async throws {
    let header = ObservationCSVTests.header
    let good = "JFK,2013,1,1,1,39,26,59,270,10,NA,0,1012,10"
    for lineBreak in ["\n", "\r\n", "\r"] {
      let text = [
        header,
        good + ",\"two\(lineBreak)lines\"",
        good + ",\"three\(lineBreak)\(lineBreak)lines\"",
        "JFK,2013,1,1,1,hot,26,59,270,10,NA,0,1012,10,x",
      ].joined(separator: lineBreak)
      let replayed = try await replay(text)
      #expect(replayed.summary.rowsReplayed == 2)
      #expect(replayed.rejected.map(\.line) == [7], "line break \(Array(lineBreak.utf8))")
    }
  }

  @Test("An unterminated quote is reported with the line where it began")
  func unterminatedQuote() async throws {
    let text = """
      \(ObservationCSVTests.header)
      JFK,2013,1,1,1,39,26,59,270,10,NA,0,1012,10,x
      JFK,2013,1,1,2,39,26,59,270,10,NA,0,1012,10,"x
      JFK,2013,1,1,3,39,26,59,270,10,NA,0,1012,10,x
      JFK,2013,1,1,4,39,26,59,270,10,NA,0,1012,10,x
      """
    for sizes in [[text.utf8.count], [1], [13]] {
      let replayed = try await replayInChunks(text, sizes: sizes)
      #expect(
        replayed.rejected.map(\.description) == [
          "line 3: the quote that opens field 15 on line 3 is never closed,"
            + " so the rest of the file was read as part of the field"
        ])
      #expect(replayed.summary.rowsReplayed == 1)
      #expect(replayed.summary.rowsRejected == 1)
    }
  }

  @Test("A file is read as it arrives: an unterminated quote before 16 MiB more is reported")
  func unterminatedQuoteOverHugeFile() async throws {
    // The file is made as it is read; it never exists whole.
    let start = Array("\(ObservationCSVTests.header)\n\"JFK".utf8)
    let total = start.count + 16 << 20
    var offset = 0
    let data = WeatherData()
    let log = MeasurementLog()
    data.addObserver(log)
    let summary = try await data.replay { buffer in
      let size = min(buffer.count, total - offset)
      let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<size])
      chunk.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "9"))
      if offset == 0 { chunk.copyBytes(from: start) }
      offset += size
      return size
    }
    #expect(summary.rowsRejected == 1)
    #expect(
      log.rejected.first?.description.hasPrefix("line 2: the quote that opens field 1 on line 2")
        == true)
  }

  @Test(
    "Quotes that break the rules make the row rejected, saying where",
    arguments: [
      (
        "JF\"K,2013,1,1,1,39,26,59,270,10,NA,0,1012,10,x",
        "field 1 has a quote inside, but quotes may only enclose a whole field (write \"\" for a quote inside quotes)"
      ),
      (
        "\"JFK\"X,2013,1,1,1,39,26,59,270,10,NA,0,1012,10,x",
        "field 1 has text after its closing quote"
      ),
    ])
  func badQuotes(row: String, reason: String) async throws {
    let replayed = try await replay(
      "\(ObservationCSVTests.header)\n\(row)\nJFK,2013,1,1,1,39,26,59,270,10,NA,0,1012,10,x")
    #expect(replayed.rejected == [ObservationCSV.RowError(line: 2, reason: reason)])
    #expect(replayed.summary.rowsReplayed == 1)
  }

  @Test("Numbers read as Double(_:) reads them, digit for digit", arguments: 1...20)
  func numbersReadExactly(seed: Int) async throws {
    var random = SeededGenerator(state: UInt64(seed) &* 977)
    let alphabet = Array("0123456789.-+e")
    for _ in 0..<200 {
      let length = Int(random.next() % 20) + 1
      let text = String((0..<length).map { _ in alphabet[Int(random.next() % 14)] })
      let row = "JFK,2013,1,1,1,\(text),26,59,270,10,NA,0,1012,10,x"
      let replayed = try await replay("\(ObservationCSVTests.header)\n\(row)")
      if let expected = Double(text), expected.isFinite, (-100...150).contains(expected) {
        let temperature = try #require(replayed.latest?.temperature, "'\(text)'")
        #expect(temperature.bitPattern == expected.bitPattern, "'\(text)'")
      } else {
        #expect(replayed.latest == nil, "'\(text)'")
        #expect(replayed.rejected.count == 1, "'\(text)'")
      }
    }
  }

  @Test("Long decimals, exponents and signs read as Double(_:) reads them")
  func numberForms() async throws {
    for text in [
      "10.357019999999999", "39.02", "-0", "+.5", "5.", "1e1", "0.000000000000000000000001",
      "0000000000000000000042.5", "123.4567890123456", "12.34567890123456", "-99.99999999999999999",
    ] {
      let replayed = try await replay(
        "\(ObservationCSVTests.header)\nJFK,2013,1,1,1,\(text),26,59,270,10,NA,0,1012,10,x")
      let expected = try #require(Double(text))
      #expect(replayed.latest?.temperature?.bitPattern == expected.bitPattern, "'\(text)'")
    }
  }

  @Test("A header after blank lines is read; a bad one is reported at its line")
  func headerLine() async throws {
    let summary = try await WeatherData().replay(
      csv: "\n\n\(ObservationCSVTests.header)\nJFK,2013,1,1,1,39,26,59,270,10,NA,0,1012,10,x")
    #expect(summary.rowsReplayed == 1)
    await #expect(
      throws: ObservationCSV.HeaderError(
        line: 3, reason: "the header: field 2 has text after its closing quote")
    ) {
      try await WeatherData().replay(csv: "\r\n\r\norigin,\"year\"s")
    }
  }

  @Test("An error from the source ends the replay and reaches the caller, after the rows before it")
  func sourceError() async {
    struct Unplugged: Error {}
    let data = WeatherData()
    let log = MeasurementLog()
    data.addObserver(log)
    let rows = Array(
      """
      \(ObservationCSVTests.header)
      JFK,2013,1,1,1,39,26,59,270,10,NA,0,1012,10,x
      JFK,2013,1,1,2,40,26,59,270,10,NA,0,1012,10,x

      """.utf8)
    await #expect(throws: Unplugged.self) {
      var calls = 0
      _ = try await data.replay { buffer in
        calls += 1
        #expect(calls <= 2, "read again after it threw")
        guard calls == 1 else { throw Unplugged() }
        buffer.copyBytes(from: rows)
        return rows.count
      }
    }
    // The observers heard the rows read before the error, before it was thrown.
    #expect(log.hours == [1, 2])
  }
}
