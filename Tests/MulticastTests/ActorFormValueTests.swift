// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// A value larger than a few registers, with references in it.
struct StationReading: Equatable, Sendable {
  var station: String
  var temperature: Double
  var samples: [Int]
  var flags: (Bool, Bool, Bool) = (true, false, true)
  var note: String?

  static func == (lhs: StationReading, rhs: StationReading) -> Bool {
    lhs.station == rhs.station && lhs.temperature == rhs.temperature
      && lhs.samples == rhs.samples && lhs.flags == rhs.flags && lhs.note == rhs.note
  }
}

/// A value that is a class instance.
final class ValueToken: Sendable {
  let number: Int
  init(_ number: Int) { self.number = number }
}

/// An enumeration with payloads of different sizes.
enum ShapeOutcome: Equatable, Sendable {
  case none
  case count(Int)
  case message(String, Int)
}

/// An event for each layout the handler tests send, and one value of each
/// to send.
struct LayoutSenders {
  /// A string too long for a string's inline storage.
  static let long = "forty-two, and long enough not to fit in a string's inline storage"

  let ints = EventSender<Int>()
  let strings = EventSender<String>()
  let readings = EventSender<StationReading>()
  let tokens = EventSender<ValueToken>()
  let outcomes = EventSender<ShapeOutcome>()
  let optionals = EventSender<Int?>()
  let ticks = EventSender<Void>()

  /// Sends, in this order: 42, ``long``, a reading from LGA, token 7, an
  /// outcome with a message, `nil` and 9, and a tick.
  func sendOneOfEach() {
    ints.send(42)
    strings.send(Self.long)
    readings.send(
      StationReading(station: "LGA", temperature: -3.25, samples: [4, 5, 6], note: "gusty"))
    tokens.send(ValueToken(7))
    outcomes.send(.message("done", 3))
    optionals.send(nil)
    optionals.send(9)
    ticks.send()
  }
}

/// An actor that subscribes itself with the actor forms, and keeps what it
/// heard.
actor ShapeListener {
  var heard: [String] = []

  /// Subscribes to every event and value with the actor forms, sends or
  /// assigns one of each, and returns what it heard, in order.
  func hearOneOfEach() -> [String] {
    let senders = LayoutSenders()
    let level = ObservableValue(StationReading(station: "JFK", temperature: 1.5, samples: [1]))
    let ratio = ObservableValue((numerator: Int64(1), flag: Int8(2)))
    let subscriptions = [
      senders.ints.event.observe(actor: self) { me, value in me.heard.append("int \(value)") },
      senders.strings.event.observe(actor: self) { me, value in me.heard.append("string \(value)")
      },
      senders.readings.event.observe(actor: self) { me, value in
        me.heard.append(
          "reading \(value.station) \(value.temperature) \(value.samples) \(value.note ?? "-")")
      },
      senders.tokens.event.observe(actor: self) { me, value in
        me.heard.append("token \(value.number)")
      },
      senders.outcomes.event.observe(actor: self) { me, value in me.heard.append("outcome \(value)")
      },
      senders.optionals.event.observe(actor: self) { me, value in
        me.heard.append("optional \(value.map(String.init) ?? "nil")")
      },
      senders.ticks.event.observe(actor: self) { me, _ in me.heard.append("tick") },
      level.observe(actor: self) { me, old, new in
        me.heard.append("level \(old.station) -> \(new.station) \(new.samples)")
      },
      ratio.observe(actor: self) { me, old, new in
        me.heard.append("ratio \(old.numerator)/\(old.flag) -> \(new.numerator)/\(new.flag)")
      },
    ]
    senders.sendOneOfEach()
    level.value = StationReading(station: "EWR", temperature: 0, samples: [8, 9])
    ratio.value = (numerator: 3, flag: 4)
    withExtendedLifetime(subscriptions) {}
    return heard
  }
}

@Suite("The actor forms with values of every shape")
struct ActorFormValueTests {
  @Test(
    "An actor's own subscriptions, made with the actor forms, hear values of every layout as sent: integers, strings, large structures, class instances, enumerations, optionals, nothing, and old and new values"
  )
  func everyShape() async {
    let heard = await ShapeListener().hearOneOfEach()
    #expect(
      heard == [
        "int 42",
        "string forty-two, and long enough not to fit in a string's inline storage",
        "reading LGA -3.25 [4, 5, 6] gusty",
        "token 7",
        "outcome message(\"done\", 3)",
        "optional nil",
        "optional 9",
        "tick",
        "level JFK -> EWR [8, 9]",
        "ratio 1/2 -> 3/4",
      ])
  }
}
