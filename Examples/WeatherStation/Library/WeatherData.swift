// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Multicast

/// What ``WeatherData`` tells its observers, on the main actor.
///
/// Its observers are displays, so it is on the main actor: a class that
/// adopts it in its declaration is `@MainActor` too. It is `Sendable`, as
/// main-actor classes are, so that the weather data, an actor of its own, can
/// keep its observers and broadcast to them.
///
/// Every method has an empty default, so that an observer implements only
/// what it needs.
@MainActor
public protocol WeatherDataObserver: AnyObject, Sendable {
  /// `data` recorded a new measurement.
  func weatherData(_ data: WeatherData, didRecord measurement: WeatherMeasurement)
  /// A replay into `data` skipped a row that could not be read.
  func weatherData(_ data: WeatherData, didReject row: ObservationCSV.RowError)
}

extension WeatherDataObserver {
  /// Does nothing.
  public func weatherData(_ data: WeatherData, didRecord measurement: WeatherMeasurement) {}
  /// Does nothing.
  public func weatherData(_ data: WeatherData, didReject row: ObservationCSV.RowError) {}
}

/// A weather station's data: it records measurements and tells its observers
/// about each one on the main actor.
///
/// The weather data is an actor, so its work, such as reading and parsing a
/// replay, runs away from the main actor, where its observers live. It tells
/// them through a `MulticastDelegate` with `onMainActor`: each broadcast is
/// queued and returns at once, and the queue is delivered on the main actor
/// in batches, in the order the broadcasts were made. Each observer hears
/// every measurement in the order it was recorded, and observers hear it in
/// the order they registered.
///
/// Observers are held weakly, so one that is released stops hearing and
/// never needs removing. ``waitForDelivery()`` returns once the observers
/// have heard everything recorded before it; a replay does so before it
/// returns.
public actor WeatherData {
  private let observers = MulticastDelegate<any WeatherDataObserver>()

  /// The last measurement recorded, if any.
  public private(set) var latest: WeatherMeasurement?

  /// Creates weather data with no measurement.
  public init() {}

  /// Adds an observer; it is held weakly.
  ///
  /// It hears the measurements recorded after this call, and none recorded
  /// before it, even one whose broadcast is still on its way to the main
  /// actor.
  ///
  /// - Parameter observer: The observer to add.
  public nonisolated func addObserver(_ observer: any WeatherDataObserver) {
    observers.addObserver(observer)
  }

  /// Removes an observer.
  ///
  /// Observers are held weakly, so one that is released never needs
  /// removing.
  ///
  /// - Parameter observer: The observer to remove.
  public nonisolated func removeObserver(_ observer: any WeatherDataObserver) {
    observers.removeObserver(observer)
  }

  /// The number of observers alive.
  public nonisolated var observerCount: Int { observers.count }

  /// Records a measurement and tells every observer, on the main actor.
  ///
  /// The broadcast is queued, so this returns before the observers hear it;
  /// ``waitForDelivery()`` waits for them (on the main actor, so does the
  /// library's `waitForDeliveries()`).
  ///
  /// - Parameter measurement: The new measurement.
  public func record(_ measurement: WeatherMeasurement) {
    latest = measurement
    observers.onMainActor { $0.weatherData(self, didRecord: measurement) }
  }

  /// Tells every observer, on the main actor, that a replay skipped a row.
  ///
  /// - Parameter row: Where the row was and why it could not be read.
  func reject(_ row: ObservationCSV.RowError) {
    observers.onMainActor { $0.weatherData(self, didReject: row) }
  }

  /// Waits until the observers have heard every broadcast made before this
  /// call, wherever it is called from.
  ///
  /// It runs the library's `waitForDeliveries()` on the main actor, where
  /// the observers live. Code on the main actor may call
  /// `waitForDeliveries()` itself; but called on another actor, that waits
  /// only for the work queued for that actor, and a replay, which waits
  /// between chunks on this actor, needs to wait for the main actor's.
  @MainActor
  public func waitForDelivery() async { await waitForDeliveries() }
}
