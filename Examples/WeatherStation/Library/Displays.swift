// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Shows the latest measurement.
///
/// Like every display here, it lives on the main actor and registers with
/// its ``WeatherData`` when it is created. It hears each measurement on the
/// main actor, while the weather data reads and records on its own actor. It
/// is held weakly: once released, it hears nothing more, and it never needs
/// removing.
@MainActor
public final class CurrentConditionsDisplay: WeatherDataObserver {
  /// The measurement shown, if any has arrived.
  public private(set) var measurement: WeatherMeasurement?

  /// Creates the display and registers it with `data`.
  ///
  /// - Parameter data: The weather data to show.
  public init(data: WeatherData) {
    data.addObserver(self)
  }

  /// Shows the new measurement.
  public func weatherData(_ data: WeatherData, didRecord measurement: WeatherMeasurement) {
    self.measurement = measurement
  }

  /// The display as text, such as `now 39.0°F, 59% humidity, 1012.3 hPa`.
  public var text: String {
    guard let measurement else { return "no measurement yet" }
    let temperature = measurement.temperature.map { "\(oneDecimal($0))°F" } ?? "temperature unknown"
    let humidity =
      measurement.humidity.map { "\(Int($0.rounded()))% humidity" } ?? "humidity unknown"
    let pressure = measurement.pressure.map { "\(oneDecimal($0)) hPa" } ?? "pressure unknown"
    return "now \(temperature), \(humidity), \(pressure)"
  }
}

/// Shows the lowest, average and highest temperature so far.
@MainActor
public final class StatisticsDisplay: WeatherDataObserver {
  /// The lowest temperature so far, in degrees Fahrenheit.
  public private(set) var minimum: Double?
  /// The highest temperature so far, in degrees Fahrenheit.
  public private(set) var maximum: Double?
  private var sum = 0.0
  /// The number of temperatures seen; measurements without one do not count.
  public private(set) var count = 0

  /// Creates the display and registers it with `data`.
  ///
  /// - Parameter data: The weather data to summarize.
  public init(data: WeatherData) {
    data.addObserver(self)
  }

  /// The average temperature so far, in degrees Fahrenheit.
  public var average: Double? { count == 0 ? nil : sum / Double(count) }

  /// Adds the measurement's temperature, if it has one.
  public func weatherData(_ data: WeatherData, didRecord measurement: WeatherMeasurement) {
    guard let temperature = measurement.temperature else { return }
    minimum = min(minimum ?? temperature, temperature)
    maximum = max(maximum ?? temperature, temperature)
    sum += temperature
    count += 1
  }

  /// The display as text, such as `min 21.9°F, avg 35.2°F, max 51.1°F`.
  public var text: String {
    guard let minimum, let maximum, let average else { return "no temperature yet" }
    return
      "min \(oneDecimal(minimum))°F, avg \(oneDecimal(average))°F, max \(oneDecimal(maximum))°F"
  }
}

/// Forecasts from the pressure trend of the last three hours.
///
/// Rising pressure brings better weather, falling pressure cooler and wetter
/// weather; a change of less than 1 hPa in three hours is steady. Readings
/// without a pressure are skipped, and a gap of more than three hours, or a
/// change of station, starts the trend again.
@MainActor
public final class ForecastDisplay: WeatherDataObserver {
  /// What the pressure trend says.
  public enum Forecast: Equatable, Sendable, CustomStringConvertible {
    /// Not enough readings in the last three hours to see a trend.
    case unknown
    /// Pressure is rising.
    case improving
    /// Pressure is falling.
    case coolerAndWetter
    /// Pressure is steady.
    case moreOfTheSame

    /// The forecast in words.
    public var description: String {
      switch self {
      case .unknown: "not enough readings yet"
      case .improving: "improving weather on the way"
      case .coolerAndWetter: "watch out for cooler, wetter weather"
      case .moreOfTheSame: "more of the same"
      }
    }
  }

  /// The pressure change in three hours that counts as a trend, in hPa.
  public nonisolated static let threshold = 1.0

  /// Readings with a pressure from the last three hours, oldest first.
  private var recent: [(station: String, hour: Int, pressure: Double)] = []
  /// The forecast shown.
  public private(set) var forecast = Forecast.unknown

  /// Creates the display and registers it with `data`.
  ///
  /// - Parameter data: The weather data to forecast from.
  public init(data: WeatherData) {
    data.addObserver(self)
  }

  /// Updates the trend with the measurement's pressure, if it has one.
  public func weatherData(_ data: WeatherData, didRecord measurement: WeatherMeasurement) {
    guard let pressure = measurement.pressure else { return }
    let hour = measurement.time.hoursSinceEpoch
    recent.removeAll { $0.station != measurement.station || hour - $0.hour > 3 || $0.hour > hour }
    recent.append((measurement.station, hour, pressure))
    guard let oldest = recent.first, recent.count > 1 else {
      forecast = .unknown
      return
    }
    let change = pressure - oldest.pressure
    forecast =
      change >= Self.threshold
      ? .improving : change <= -Self.threshold ? .coolerAndWetter : .moreOfTheSame
  }

  /// The display as text, such as `forecast: more of the same`.
  public var text: String { "forecast: \(forecast)" }
}
