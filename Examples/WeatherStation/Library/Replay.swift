// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// What a replay read and did.
public struct ReplaySummary: Equatable, Sendable {
  /// Rows after the header, blank lines not counted.
  public var rowsRead = 0
  /// Rows recorded into the weather data.
  public var rowsReplayed = 0
  /// Replayed rows without a pressure.
  public var rowsWithoutPressure = 0
  /// Rows that could not be read.
  public var rowsRejected = 0
  /// Rows from stations other than the one asked for.
  public var rowsFromOtherStations = 0

  /// Creates an empty summary.
  public init() {}
}

extension WeatherData {
  /// Records every observation in `text`, in order, and tells the observers
  /// about each.
  ///
  /// A row that cannot be read is passed to `rejected` and skipped; the rest
  /// of the file is still replayed.
  ///
  /// - Parameters:
  ///   - text: The file's contents, in the layout ``ObservationCSV`` reads.
  ///   - station: The only station to replay, or `nil` for all.
  ///   - rejected: Called with each row that is rejected.
  /// - Returns: What was read and replayed.
  /// - Throws: ``ObservationCSV/HeaderError`` if the file has no usable header.
  public func replay(
    csv text: String, station: String? = nil,
    rejected: (ObservationCSV.RowError) -> Void = { _ in }
  ) throws(ObservationCSV.HeaderError) -> ReplaySummary {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).lazy
      .map { $0.last == "\r" ? $0.dropLast() : $0 }
      .enumerated().makeIterator()
    guard let (_, header) = lines.next(), !header.allSatisfy(\.isWhitespace) else {
      throw ObservationCSV.HeaderError(reason: "the file is empty; a header line is expected")
    }
    let reader = try ObservationCSV(header: header)
    var summary = ReplaySummary()
    while let (offset, row) = lines.next() {
      if row.allSatisfy(\.isWhitespace) { continue }
      summary.rowsRead += 1
      let measurement: WeatherMeasurement
      do {
        measurement = try reader.measurement(in: row, line: offset + 1)
      } catch {
        summary.rowsRejected += 1
        rejected(error)
        continue
      }
      if let station, measurement.station != station {
        summary.rowsFromOtherStations += 1
        continue
      }
      record(measurement)
      summary.rowsReplayed += 1
      if measurement.pressure == nil { summary.rowsWithoutPressure += 1 }
    }
    return summary
  }
}
