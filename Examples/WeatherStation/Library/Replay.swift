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
  /// The size of the chunks ``replay(station:reading:)`` reads.
  public static let replayChunkSize = 64 * 1024

  /// Records every observation in `text`, in order, and tells the observers
  /// about each.
  ///
  /// The text is parsed on this actor, away from the main actor; the
  /// observers hear each row on the main actor, in the order of the file. A
  /// row that cannot be read is skipped, and the observers hear of it in its
  /// place (``WeatherDataObserver/weatherData(_:didReject:)``); the rest of
  /// the file is still replayed.
  ///
  /// The replay returns, or throws, once the observers have heard about
  /// every row it read.
  ///
  /// - Parameters:
  ///   - text: The file's contents, in the layout ``ObservationCSV`` reads.
  ///   - station: The only station to replay, or `nil` for all.
  /// - Returns: What was read and replayed.
  /// - Throws: ``ObservationCSV/HeaderError`` if the file has no usable header.
  public func replay(
    csv text: String, station: String? = nil
  ) async throws(ObservationCSV.HeaderError) -> ReplaySummary {
    var replay = ObservationReplay(station: station)
    var reader = CSVReader()
    var text = text
    let result = text.withUTF8 { text in
      Result { () throws(ObservationCSV.HeaderError) in
        try replay.read(UnsafeRawBufferPointer(text), with: &reader, into: self)
        return try replay.finish(&reader, into: self)
      }
    }
    await waitForDelivery()
    return try result.get()
  }

  /// Records every observation that `read` supplies, in order, and tells the
  /// observers about each, a chunk at a time: a file of any size is replayed
  /// in memory bounded by its longest row.
  ///
  /// `read` is called and the chunks are parsed on this actor, away from the
  /// main actor; the observers hear each row on the main actor, in the order
  /// of the file. A row that cannot be read is skipped, and the observers
  /// hear of it in its place
  /// (``WeatherDataObserver/weatherData(_:didReject:)``); the rest of the
  /// file is still replayed.
  ///
  /// After each ``replayChunkSize`` bytes, the replay waits for the
  /// observers to catch up, so that the broadcasts on their way to them hold
  /// about one chunk's rows at most. The actor is free while it waits: a
  /// measurement recorded meanwhile, or another replay, comes between two
  /// chunks. The replay returns, or throws, once the observers have heard
  /// about every row it read.
  ///
  /// - Parameters:
  ///   - station: The only station to replay, or `nil` for all.
  ///   - read: Fills the buffer it is given with the next bytes of the file
  ///     and returns how many it wrote; 0 at the end of the file. It is sent
  ///     to this actor and called there, so it may capture values that are
  ///     not `Sendable`, as long as the caller does not use them after.
  /// - Returns: What was read and replayed.
  /// - Throws: ``ObservationCSV/HeaderError`` if the file has no usable
  ///   header, or what `read` throws; the replay stops there.
  public func replay(
    station: String? = nil, reading read: sending (UnsafeMutableRawBufferPointer) throws -> Int
  ) async throws -> ReplaySummary {
    var replay = ObservationReplay(station: station)
    do {
      let summary = try await replay.read(from: read, into: self)
      await waitForDelivery()
      return summary
    } catch {
      await waitForDelivery()
      throw error
    }
  }
}

/// A replay under way: the header once read, and the counts.
///
/// Its methods run on the weather data's actor, which they take as an
/// `isolated` parameter, so that each row is recorded without a hop.
private struct ObservationReplay {
  let station: String?
  var format: ObservationCSV?
  var counts = ReplaySummary()

  init(station: String?) {
    self.station = station
  }

  mutating func read(
    _ chunk: UnsafeRawBufferPointer, with reader: inout CSVReader,
    into data: isolated WeatherData
  ) throws(ObservationCSV.HeaderError) {
    try reader.read(chunk) { (record) throws(ObservationCSV.HeaderError) in
      try take(record, into: data)
    }
  }

  /// Reads everything `read` supplies, a chunk at a time, and returns the
  /// counts.
  ///
  /// After each chunk's worth of bytes it waits for the observers to hear
  /// every row so far: the broadcasts queued for the main actor hold the
  /// measurements, and would otherwise grow with the file whenever the main
  /// actor falls behind.
  mutating func read(
    from read: (UnsafeMutableRawBufferPointer) throws -> Int, into data: isolated WeatherData
  ) async throws -> ReplaySummary {
    var reader = CSVReader()
    let chunk = UnsafeMutableRawBufferPointer.allocate(
      byteCount: WeatherData.replayChunkSize, alignment: 1)
    defer { chunk.deallocate() }
    var bytesSinceDelivery = 0
    while true {
      let count = try read(chunk)
      precondition(
        (0...chunk.count).contains(count),
        "replay(reading:): read returned \(count) for a buffer of \(chunk.count) bytes")
      if count == 0 { break }
      try self.read(
        UnsafeRawBufferPointer(rebasing: chunk[0..<count]), with: &reader, into: data)
      bytesSinceDelivery += count
      if bytesSinceDelivery >= chunk.count {
        bytesSinceDelivery = 0
        await data.waitForDelivery()
      }
    }
    return try finish(&reader, into: data)
  }

  /// Reads what the reader still holds and returns the counts.
  mutating func finish(
    _ reader: inout CSVReader, into data: isolated WeatherData
  ) throws(ObservationCSV.HeaderError) -> ReplaySummary {
    try reader.finish { (record) throws(ObservationCSV.HeaderError) in
      try take(record, into: data)
    }
    guard format != nil else {
      throw ObservationCSV.HeaderError(
        line: 1, reason: "the file is empty; a header line is expected")
    }
    return counts
  }

  private mutating func take(
    _ record: borrowing CSVRecord, into data: isolated WeatherData
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
      data.reject(error)
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
