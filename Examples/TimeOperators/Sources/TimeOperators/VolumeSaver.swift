// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import AsyncAlgorithms
public import Multicast

/// Saves a slider's volume at most once per interval, the latest each time,
/// rather than at every step of a drag.
///
/// The volume is an ``ObservableValue``; its changes, as a stream of new
/// values, are throttled:
///
/// ```swift
/// let saver = VolumeSaver(volume: player.volume, every: .seconds(1)) { level in
///   settings.volume = level
/// }
/// ```
///
/// The throttle saves only when a change comes: a level held back within
/// an interval is not saved when the interval ends. The next change after
/// it is saved in its place, and stopping saves the last one held back, so
/// the end of a drag is saved at the latest when the saver stops or goes.
/// Where the end of a drag must be saved once the interval ends, debounce
/// the changes instead.
///
/// swift-async-algorithms 1.x offers throttling as `_throttle`, with an
/// underscore: its name and behaviour may still change.
public final class VolumeSaver: Sendable {
  private let saving: Task<Void, Never>

  /// Saves the latest level of `volume` at most once per `interval`.
  ///
  /// The first change is saved at once. Those that come within `interval`
  /// of the last save are held back: the first change after the interval
  /// is saved in their place, and stopping saves the last of them.
  ///
  /// - Parameters:
  ///   - volume: The volume to save.
  ///   - interval: The shortest time between two saves.
  ///   - clock: The clock that measures the interval.
  ///   - save: Stores a level.
  public convenience init<C: Clock>(
    volume: ObservableValue<Double>, every interval: C.Duration, clock: C,
    save: @escaping @Sendable (Double) -> Void
  ) {
    self.init(
      levels: volume.changes.values.map(\.new), every: interval, clock: clock, save: save)
  }

  /// Saves the latest level of `volume` at most once per `interval`,
  /// measured on the continuous clock.
  ///
  /// - Parameters:
  ///   - volume: The volume to save.
  ///   - interval: The shortest time between two saves.
  ///   - save: Stores a level.
  public convenience init(
    volume: ObservableValue<Double>, every interval: Duration,
    save: @escaping @Sendable (Double) -> Void
  ) {
    self.init(volume: volume, every: interval, clock: ContinuousClock(), save: save)
  }

  /// Saves the latest level of `levels` at most once per `interval`.
  ///
  /// - Parameters:
  ///   - levels: The levels, as they change.
  ///   - interval: The shortest time between two saves.
  ///   - clock: The clock that measures the interval.
  ///   - save: Stores a level.
  public init<Levels: AsyncSequence & Sendable, C: Clock>(
    levels: Levels, every interval: C.Duration, clock: C,
    save: @escaping @Sendable (Double) -> Void
  ) where Levels.Element == Double {
    let throttled = levels._throttle(for: interval, clock: clock, latest: true)
    saving = Task {
      do {
        for try await level in throttled { save(level) }
      } catch {
        // The levels ended with an error: no more saves.
      }
    }
  }

  /// Stops saving, and returns once the saving task has ended (its
  /// subscription to the volume with it).
  public func stop() async {
    saving.cancel()
    await saving.value
  }

  deinit {
    saving.cancel()
  }
}
