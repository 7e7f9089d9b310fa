// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// The hour of an observation, in the station's local time.
public struct ObservationTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The year, such as 2013.
  public var year: Int
  /// The month, from 1 to 12.
  public var month: Int
  /// The day of the month, from 1.
  public var day: Int
  /// The hour, from 0 to 23.
  public var hour: Int

  /// Creates a time.
  ///
  /// - Parameters:
  ///   - year: The year.
  ///   - month: The month, from 1 to 12.
  ///   - day: The day of the month, from 1.
  ///   - hour: The hour, from 0 to 23.
  public init(year: Int, month: Int, day: Int, hour: Int) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
  }

  /// Hours since 1 January 1970 at midnight: a count that makes gaps between
  /// observations measurable.
  public var hoursSinceEpoch: Int {
    // Days from the civil calendar date, as in Howard Hinnant's algorithm.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return (era * 146_097 + dayOfEra - 719_468) * 24 + hour
  }

  /// The date alone, such as `2013-01-28`.
  public var date: String {
    "\(year)-\(twoDigits(month))-\(twoDigits(day))"
  }

  /// The date and hour, such as `2013-01-28 06:00`.
  public var description: String { "\(date) \(twoDigits(hour)):00" }

  /// Returns whether `lhs` comes before `rhs`.
  ///
  /// - Parameters:
  ///   - lhs: A time.
  ///   - rhs: Another time.
  /// - Returns: `true` if `lhs` is earlier.
  public static func < (lhs: ObservationTime, rhs: ObservationTime) -> Bool {
    (lhs.year, lhs.month, lhs.day, lhs.hour) < (rhs.year, rhs.month, rhs.day, rhs.hour)
  }
}

private func twoDigits(_ value: Int) -> String {
  value < 10 ? "0\(value)" : "\(value)"
}

/// One observation from a weather station.
///
/// Values the station did not report
/// are `nil`.
public struct WeatherMeasurement: Equatable, Sendable {
  /// The station's code, such as `JFK`.
  public var station: String
  /// When the observation was made.
  public var time: ObservationTime
  /// The air temperature, in degrees Fahrenheit.
  public var temperature: Double?
  /// The relative humidity, in percent.
  public var humidity: Double?
  /// The sea-level pressure, in hectopascals (millibars).
  public var pressure: Double?

  /// Creates a measurement.
  ///
  /// - Parameters:
  ///   - station: The station's code.
  ///   - time: When the observation was made.
  ///   - temperature: The air temperature in degrees Fahrenheit, if reported.
  ///   - humidity: The relative humidity in percent, if reported.
  ///   - pressure: The sea-level pressure in hectopascals, if reported.
  public init(
    station: String, time: ObservationTime, temperature: Double?, humidity: Double?,
    pressure: Double?
  ) {
    self.station = station
    self.time = time
    self.temperature = temperature
    self.humidity = humidity
    self.pressure = pressure
  }
}

/// Writes a measured value with one decimal, such as `39.0`: as the displays
/// show it, and as ``ObservationCSV`` quotes the bounds of a column.
func oneDecimal(_ value: Double) -> String {
  let tenths = (value * 10).rounded()
  let sign = tenths < 0 ? "-" : ""
  let magnitude = Int(abs(tenths))
  return "\(sign)\(magnitude / 10).\(magnitude % 10)"
}
