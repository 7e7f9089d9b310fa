// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

/// What ``WeatherData`` tells its observers.
///
/// The method has an empty default, so that an observer conforms with no code
/// until it needs some.
public protocol WeatherDataObserver: AnyObject {
  /// `data` recorded a new measurement.
  func weatherData(_ data: WeatherData, didRecord measurement: WeatherMeasurement)
}

extension WeatherDataObserver {
  /// Does nothing.
  public func weatherData(_ data: WeatherData, didRecord measurement: WeatherMeasurement) {}
}

/// A weather station's data: it records measurements and tells its observers
/// about each one, in the order they registered.
public final class WeatherData {
  private let observers = MulticastDelegate<any WeatherDataObserver>()

  /// The last measurement recorded, if any.
  public private(set) var latest: WeatherMeasurement?

  /// Creates weather data with no measurement.
  public init() {}

  /// Adds an observer; it is held weakly.
  ///
  /// - Parameter observer: The observer to add.
  public func addObserver(_ observer: any WeatherDataObserver) {
    observers.addObserver(observer)
  }

  /// Removes an observer.
  ///
  /// An observer may remove itself from its `deinit`.
  ///
  /// - Parameter observer: The observer to remove.
  public func removeObserver(_ observer: any WeatherDataObserver) {
    observers.removeObserver(observer)
  }

  /// The number of observers alive.
  public var observerCount: Int { observers.count }

  /// Records a measurement and tells every observer.
  ///
  /// - Parameter measurement: The new measurement.
  public func record(_ measurement: WeatherMeasurement) {
    latest = measurement
    observers { $0.weatherData(self, didRecord: measurement) }
  }
}
