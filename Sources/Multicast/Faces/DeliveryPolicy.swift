// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Which values a subscription hears when they are sent faster than its
/// isolation runs its handler.
///
/// A main-actor view that redraws a download's progress needs the latest
/// value, not every value sent while the main actor was busy:
///
/// ```swift
/// download.progress.observe(delivering: .latest) { old, new in
///   progressView.progress = new
/// }
/// ```
///
/// Either way each value it hears comes in the order sent, on the
/// subscription's isolation, after every value sent before it to that
/// isolation. For a stream, `values(bufferingPolicy: .bufferingNewest(1))`
/// keeps the latest in the same way; <doc:SwiftUIAndObservation> reads one
/// to redraw at most once a frame.
public enum DeliveryPolicy: Sendable, Hashable {
  /// Every value, in the order sent: the default.
  case everyValue

  /// Only the latest value: one still waiting for the subscription's
  /// isolation is replaced by a newer one, which then waits in its place.
  ///
  /// An ``ObservableValue``'s observer hears as `old` the value it last
  /// heard, and as `new` the latest. The values waiting for the
  /// subscription take constant memory, however fast they are sent, and the
  /// latest reaches it with the isolation's next turn: when values for the
  /// same isolation from other events wait between two of them, it hears
  /// the one before those too, keeping the order.
  case latest
}

extension DeliveryPolicy {
  /// The mode of a subscription that hears every value.
  @usableFromInline var mode: _SubscriptionMode {
    switch self {
    case .everyValue: .everyValue
    case .latest: .latest
    }
  }
}
