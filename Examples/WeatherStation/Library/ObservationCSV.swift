// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

public import StreamingCSV

/// Reads observations in the CSV layout of the nycflights13 weather table:
/// a header record naming the columns, then one observation per record, with
/// `NA` for a value the station did not report.
///
/// Records come from ``CSVReader``, so files with CRLF line endings, a
/// byte-order mark or quoted fields read the same as plain ones. Columns are
/// found by name, so their order does not matter; these must be present:
/// `origin`, `year`, `month`, `day`, `hour`, `temp`, `humid` and `pressure`.
/// Every row must have as many fields as the header. Anything else is
/// rejected with the line number and the reason.
public struct ObservationCSV: Sendable {
  /// The columns a file must have.
  public static let requiredColumns = [
    "origin", "year", "month", "day", "hour", "temp", "humid", "pressure",
  ]

  /// Why a file cannot be read at all.
  public struct HeaderError: Error, Equatable, CustomStringConvertible {
    /// The header's line number in the file, from 1.
    public var line: Int
    /// What is wrong with the header.
    public var reason: String
    /// The reason, with where it is.
    public var description: String { "line \(line): \(reason)" }

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - line: The header's line number in the file, from 1.
    ///   - reason: What is wrong with the header.
    public init(line: Int, reason: String) {
      self.line = line
      self.reason = reason
    }
  }

  /// Why one row was rejected.
  public struct RowError: Error, Equatable, CustomStringConvertible {
    /// The line number the row starts on, counting the header's line as 1.
    public var line: Int
    /// What is wrong with the row.
    public var reason: String
    /// The line number and the reason.
    public var description: String { "line \(line): \(reason)" }

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - line: The row's line number in the file, from 1.
    ///   - reason: What is wrong with the row.
    public init(line: Int, reason: String) {
      self.line = line
      self.reason = reason
    }
  }

  private let columnCount: Int
  /// Where each required column is, in the order of ``requiredColumns``.
  private let columns: [Int]

  /// Reads the header record.
  ///
  /// - Parameter header: The file's first record.
  /// - Throws: ``HeaderError`` if a required column is missing or named
  ///   twice, or the record breaks the rules of CSV.
  public init(header: borrowing CSVRecord) throws(HeaderError) {
    func reject(_ reason: String) -> HeaderError { HeaderError(line: header.line, reason: reason) }
    if let problem = header.problem { throw reject("the header: \(problem)") }
    var position: [String: Int] = [:]
    for index in 0..<header.count {
      let name = String(decoding: trimmed(header.bytes(at: index)), as: UTF8.self)
      if position.updateValue(index, forKey: name) != nil {
        throw reject("the column '\(name)' appears twice")
      }
    }
    let missing = Self.requiredColumns.filter { position[$0] == nil }
    guard missing.isEmpty else {
      throw reject(
        "missing column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))"
          + " (a header such as 'origin,year,month,day,hour,temp,humid,pressure' is expected)")
    }
    self.columnCount = header.count
    self.columns = Self.requiredColumns.map { position[$0]! }
  }

  /// Reads one row.
  ///
  /// - Parameter row: A record after the header.
  /// - Returns: The measurement in the row.
  /// - Throws: ``RowError`` saying what is wrong.
  public func measurement(in row: borrowing CSVRecord) throws(RowError) -> WeatherMeasurement {
    let line = row.line
    func reject(_ reason: String) -> RowError { RowError(line: line, reason: reason) }
    if let problem = row.problem { throw reject("\(problem)") }
    guard row.count == columnCount else {
      throw reject("expected \(columnCount) fields as in the header, found \(row.count)")
    }
    func field(_ column: Column) -> UnsafeBufferPointer<UInt8> {
      trimmed(row.bytes(at: columns[column.rawValue]))
    }
    func text(_ field: UnsafeBufferPointer<UInt8>) -> String {
      String(decoding: field.prefix(20), as: UTF8.self)
    }

    func whole(_ column: Column, in range: ClosedRange<Int>) throws(RowError) -> Int {
      let field = field(column)
      guard let value = parseInteger(field), range.contains(value) else {
        throw reject(
          "\(column) is '\(text(field))', not a whole number from \(range.lowerBound) to \(range.upperBound)"
        )
      }
      return value
    }

    func optional(_ column: Column, unit: String, in range: ClosedRange<Double>) throws(RowError)
      -> Double?
    {
      let field = field(column)
      if field.elementsEqual("NA".utf8) { return nil }
      guard let value = parseDouble(field), value.isFinite else {
        throw reject("\(column) is '\(text(field))', neither a number nor NA")
      }
      guard range.contains(value) else {
        throw reject(
          "\(column) \(text(field)) is outside \(oneDecimal(range.lowerBound)) to \(oneDecimal(range.upperBound)) \(unit)"
        )
      }
      return value
    }

    let station = field(.origin)
    guard !station.isEmpty, station.count <= 8, station.allSatisfy(isASCIILetterOrDigit) else {
      throw reject("origin is '\(text(station))', not a station code such as JFK")
    }
    let year = try whole(.year, in: 1...9999)
    let month = try whole(.month, in: 1...12)
    let day = try whole(.day, in: 1...31)
    guard day <= daysIn(month: month, year: year) else {
      throw reject("\(year)-\(month)-\(day) is not a date")
    }
    let hour = try whole(.hour, in: 0...23)
    return WeatherMeasurement(
      station: String(decoding: station, as: UTF8.self),
      time: ObservationTime(year: year, month: month, day: day, hour: hour),
      temperature: try optional(.temp, unit: "°F", in: -100...150),
      humidity: try optional(.humid, unit: "%", in: 0...100),
      pressure: try optional(.pressure, unit: "hPa", in: 850...1100))
  }

  /// The required columns, in the order of ``requiredColumns``.
  private enum Column: Int, CustomStringConvertible {
    case origin, year, month, day, hour, temp, humid, pressure
    var description: String { ObservationCSV.requiredColumns[rawValue] }
  }
}

private func daysIn(month: Int, year: Int) -> Int {
  switch month {
  case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
  case 4, 6, 9, 11: 30
  default: 31
  }
}

/// The field without spaces or tabs around it.
private func trimmed(_ field: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
  func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
  guard let start = field.firstIndex(where: { !isBlank($0) }),
    let last = field.lastIndex(where: { !isBlank($0) })
  else { return UnsafeBufferPointer(rebasing: field[0..<0]) }
  return UnsafeBufferPointer(rebasing: field[start...last])
}

private func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
    UInt8(ascii: "a")...UInt8(ascii: "z"):
    true
  default: false
  }
}
