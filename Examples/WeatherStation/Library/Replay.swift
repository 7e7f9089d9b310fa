// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import StreamingCSV

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
  /// The size of the chunks ``replay(station:rejected:reading:)`` reads.
  public static let replayChunkSize = 64 * 1024

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
    var replay = ObservationReplay(data: self, station: station)
    var reader = CSVReader()
    var text = text
    let result = text.withUTF8 { text in
      Result { () throws(ObservationCSV.HeaderError) in
        try replay.read(UnsafeRawBufferPointer(text), with: &reader, rejected: rejected)
      }
    }
    try result.get()
    return try replay.finish(&reader, rejected: rejected)
  }

  /// Records every observation that `read` supplies, in order, and tells the
  /// observers about each, a chunk at a time: a file of any size is replayed
  /// in memory bounded by its longest row.
  ///
  /// A row that cannot be read is passed to `rejected` and skipped; the rest
  /// of the file is still replayed.
  ///
  /// - Parameters:
  ///   - station: The only station to replay, or `nil` for all.
  ///   - rejected: Called with each row that is rejected.
  ///   - read: Fills the buffer it is given with the next bytes of the file
  ///     and returns how many it wrote; 0 at the end of the file.
  /// - Returns: What was read and replayed.
  /// - Throws: ``ObservationCSV/HeaderError`` if the file has no usable
  ///   header, or what `read` throws; the replay stops there.
  public func replay(
    station: String? = nil, rejected: (ObservationCSV.RowError) -> Void = { _ in },
    reading read: (UnsafeMutableRawBufferPointer) throws -> Int
  ) throws -> ReplaySummary {
    var replay = ObservationReplay(data: self, station: station)
    var reader = CSVReader()
    let chunk = UnsafeMutableRawBufferPointer.allocate(
      byteCount: Self.replayChunkSize, alignment: 1)
    defer { chunk.deallocate() }
    while true {
      let count = try read(chunk)
      precondition(
        (0...chunk.count).contains(count),
        "replay(reading:): read returned \(count) for a buffer of \(chunk.count) bytes")
      if count == 0 { break }
      try replay.read(
        UnsafeRawBufferPointer(rebasing: chunk[0..<count]), with: &reader, rejected: rejected)
    }
    return try replay.finish(&reader, rejected: rejected)
  }
}

/// A replay under way: the header once read, and the counts.
private struct ObservationReplay {
  let data: WeatherData
  let station: String?
  var format: ObservationCSV?
  var counts = ReplaySummary()

  init(data: WeatherData, station: String?) {
    self.data = data
    self.station = station
  }

  mutating func read(
    _ chunk: UnsafeRawBufferPointer, with reader: inout CSVReader,
    rejected: (ObservationCSV.RowError) -> Void
  ) throws(ObservationCSV.HeaderError) {
    try reader.read(chunk) { (record) throws(ObservationCSV.HeaderError) in
      try take(record, rejected: rejected)
    }
  }

  /// Reads what the reader still holds and returns the counts.
  mutating func finish(
    _ reader: inout CSVReader, rejected: (ObservationCSV.RowError) -> Void
  ) throws(ObservationCSV.HeaderError) -> ReplaySummary {
    try reader.finish { (record) throws(ObservationCSV.HeaderError) in
      try take(record, rejected: rejected)
    }
    guard format != nil else {
      throw ObservationCSV.HeaderError(
        line: 1, reason: "the file is empty; a header line is expected")
    }
    return counts
  }

  private mutating func take(
    _ record: borrowing CSVRecord, rejected: (ObservationCSV.RowError) -> Void
  ) throws(ObservationCSV.HeaderError) {
    guard let format else {
      format = try ObservationCSV(header: record)
      return
    }
    if record.isBlank { return }
    counts.rowsRead += 1
    let measurement: WeatherMeasurement
    do {
      measurement = try format.measurement(in: record)
    } catch {
      counts.rowsRejected += 1
      rejected(error)
      return
    }
    if let station, measurement.station != station {
      counts.rowsFromOtherStations += 1
      return
    }
    data.record(measurement)
    counts.rowsReplayed += 1
    if measurement.pressure == nil { counts.rowsWithoutPressure += 1 }
  }
}
