// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Testing

@testable import Multicast

/// What the forms of subscribing heard, in order, as text.
private final class LayoutTranscript {
  var lines: [String] = []
}

/// Subscribes with every closure form but the actor ones, from code generic
/// over the value, sends `values` and returns what each form heard.
///
/// Generic code passes its closures at their most general abstraction,
/// where a caller that knows the type may not: both must reach the
/// subscriber's closure with the value sent.
private func hearFromGenericCode<Value>(
  _ values: [Value], describe: @escaping (Value) -> String
) -> [String] {
  let sender = EventSender<Value>()
  let transcript = LayoutTranscript()
  let owner = LayoutTranscript()
  let subscriptions = [
    sender.event.observe { transcript.lines.append("closure " + describe($0)) },
    sender.event.observe(owner) { _, value in transcript.lines.append("target " + describe(value))
    },
    sender.event.observeOnce { transcript.lines.append("once " + describe($0)) },
  ]
  sender.event.observeForever { transcript.lines.append("forever " + describe($0)) }
  for value in values { sender.send(value) }
  withExtendedLifetime((subscriptions, owner)) {}
  return transcript.lines
}

/// Sends `value` through the closure and target forms of an event, and sets
/// it on an observable value observed with the closure and target forms of
/// old and new values, all from code generic over it; returns what each
/// heard, in order.
private func hearEveryShape<Value>(
  _ value: Value, describe: @escaping (Value) -> String
) -> [String] {
  let transcript = LayoutTranscript()
  let owner = LayoutTranscript()
  let sender = EventSender<Value>()
  let observed = ObservableValue(value)
  let subscriptions = [
    sender.event.observe { transcript.lines.append("value " + describe($0)) },
    sender.event.observe(owner) { _, value in transcript.lines.append("bound " + describe(value)) },
    observed.observe { old, new in
      transcript.lines.append("pair " + describe(old) + " " + describe(new))
    },
    observed.observe(owner) { _, old, new in
      transcript.lines.append("bound pair " + describe(old) + " " + describe(new))
    },
  ]
  sender.send(value)
  observed.value = value
  withExtendedLifetime((subscriptions, owner)) {}
  return transcript.lines
}

/// What `hearEveryShape` returns for a value described as `text`.
private func everyShape(_ text: String) -> [String] {
  ["value " + text, "bound " + text, "pair \(text) \(text)", "bound pair \(text) \(text)"]
}

/// A protocol whose existential is a value of several words.
private protocol Labelled {
  var label: String { get }
}

/// A labelled value.
private struct Label: Labelled {
  var label: String
}

/// A protocol bound to classes, whose existential is a reference and a
/// witness table.
private protocol Numbered: AnyObject {
  var number: Int { get }
}

/// A numbered object.
private final class NumberedObject: Numbered {
  let number: Int
  init(_ number: Int) { self.number = number }
}

/// A structure with no stored properties: a value of size zero.
private struct Empty {}

/// An enumeration with one case and no payload: a value of size zero.
private enum OnlyCase {
  case only
}

/// An actor that subscribes itself to events whose values are functions and
/// types, and to an observable function, with the actor forms.
private actor KindListener {
  var heard: [String] = []

  /// Subscribes, sends one of each and returns what it heard, in order.
  func hearFunctionsAndTypes() -> [String] {
    let functions = EventSender<(Int) -> Int>()
    let types = EventSender<Any.Type>()
    let step = ObservableValue<(Int) -> Int>({ $0 + 1 })
    let subscriptions = [
      functions.event.observe(actor: self) { me, function in me.heard.append("f \(function(2))") },
      types.event.observe(actor: self) { me, type in me.heard.append("type \(type)") },
      step.observe(actor: self) { me, old, new in me.heard.append("step \(old(1)) \(new(1))") },
    ]
    functions.send { $0 * 10 }
    types.send(Int.self)
    step.value = { $0 * 100 }
    withExtendedLifetime(subscriptions) {}
    return heard
  }
}

/// What `hearFromGenericCode` returns for `values`, as written out.
private func expected(_ values: [String]) -> [String] {
  var lines: [String] = []
  for (index, value) in values.enumerated() {
    lines += ["closure " + value, "target " + value]
    if index == 0 { lines.append("once " + value) }
    lines.append("forever " + value)
  }
  return lines
}

/// Observes a value from code generic over it with the closure forms and
/// the target form, sets each of `values` and returns what each heard: the
/// closure forms' in order, then the target form's.
private func hearChanges<Value>(
  from first: Value, to values: [Value], describe: @escaping (Value) -> String
) -> [String] {
  let transcript = LayoutTranscript()
  let owner = LayoutTranscript()
  let value = ObservableValue(first)
  let subscriptions = [
    value.observe { old, new in transcript.lines.append(describe(old) + " -> " + describe(new)) },
    value.observe(owner) { owner, old, new in
      owner.lines.append(describe(old) + " -> " + describe(new))
    },
    value.observeValue { transcript.lines.append("now " + describe($0)) },
  ]
  for next in values { value.value = next }
  withExtendedLifetime(subscriptions) {}
  return transcript.lines + owner.lines.map { "target " + $0 }
}

/// What `hearChanges` returns when its closure forms heard `lines`: those,
/// then the target form's, which hears the changes but not the current value.
private func withTargetForm(_ lines: [String]) -> [String] {
  lines + lines.filter { !$0.hasPrefix("now ") }.map { "target " + $0 }
}

/// A structure whose size is not a multiple of its alignment, so that the
/// second of two lies at its stride, not at its size.
private struct Padded {
  var wide: Int64
  var narrow: Int8
}

@Suite("Handlers reach the subscriber's closure with values of every layout")
struct HandlerLayoutTests {
  @Test(
    "The closure, target, once and forever forms, from code that knows the type, hear integers, long strings, large structures, class instances, enumerations, optionals, tuples and nothing as sent"
  )
  func concreteCallers() {
    let transcript = LayoutTranscript()
    let senders = LayoutSenders()
    let pairs = EventSender<(Int, String)>()
    let owner = LayoutTranscript()
    let subscriptions = [
      senders.ints.event.observe { transcript.lines.append("int \($0)") },
      senders.strings.event.observe { transcript.lines.append("string \($0)") },
      senders.readings.event.observe { value in
        transcript.lines.append(
          "reading \(value.station) \(value.temperature) \(value.samples) \(value.note ?? "-")")
      },
      senders.tokens.event.observe { transcript.lines.append("token \($0.number)") },
      senders.outcomes.event.observe { transcript.lines.append("outcome \($0)") },
      senders.optionals.event.observe {
        transcript.lines.append("optional \($0.map(String.init) ?? "nil")")
      },
      pairs.event.observe { number, name in transcript.lines.append("pair \(number) \(name)") },
      senders.ticks.event.observe { transcript.lines.append("tick") },
      senders.ints.event.observe(owner) { _, value in transcript.lines.append("target int \(value)")
      },
      senders.readings.event.observe(owner) { _, value in
        transcript.lines.append("target reading \(value.station) \(value.samples)")
      },
      senders.strings.event.observeOnce { transcript.lines.append("once string \($0)") },
    ]
    senders.readings.event.observeForever {
      transcript.lines.append("forever reading \($0.temperature)")
    }
    let long = LayoutSenders.long
    senders.sendOneOfEach()
    senders.strings.send("again")
    pairs.send((5, "five"))
    withExtendedLifetime((subscriptions, owner)) {}
    #expect(
      transcript.lines == [
        "int 42", "target int 42",
        "string \(long)", "once string \(long)",
        "reading LGA -3.25 [4, 5, 6] gusty", "target reading LGA [4, 5, 6]",
        "forever reading -3.25",
        "token 7",
        "outcome message(\"done\", 3)",
        "optional nil", "optional 9",
        "tick",
        "string again",
        "pair 5 five",
      ])
  }

  @Test("The same forms, from code generic over the value, hear every layout as sent")
  func genericCallers() {
    #expect(hearFromGenericCode([1, 2], describe: { "\($0)" }) == expected(["1", "2"]))
    let long = String(repeating: "long ", count: 8)
    #expect(hearFromGenericCode([long, "short"], describe: { $0 }) == expected([long, "short"]))
    let reading = StationReading(station: "JFK", temperature: 2.5, samples: [1, 2], note: nil)
    #expect(
      hearFromGenericCode([reading], describe: { "\($0.station) \($0.samples)" })
        == expected(["JFK [1, 2]"]))
    #expect(
      hearFromGenericCode([ValueToken(3), ValueToken(4)], describe: { "\($0.number)" })
        == expected(["3", "4"]))
    #expect(
      hearFromGenericCode([ShapeOutcome.count(2), .none], describe: { "\($0)" })
        == expected(["count(2)", "none"]))
    #expect(
      hearFromGenericCode([Int?.none, 8], describe: { "\($0.map(String.init) ?? "nil")" })
        == expected(["nil", "8"]))
    #expect(hearFromGenericCode([()], describe: { _ in "tick" }) == expected(["tick"]))
  }

  @Test(
    "An observable value's old and new values reach the closure and target forms, from generic code, whatever their size and alignment"
  )
  func pairsOfEveryLayout() {
    #expect(
      hearChanges(from: 1, to: [2, 3], describe: { "\($0)" })
        == withTargetForm(["now 1", "1 -> 2", "now 2", "2 -> 3", "now 3"]))
    #expect(
      hearChanges(from: UInt8(7), to: [9], describe: { "\($0)" })
        == withTargetForm(["now 7", "7 -> 9", "now 9"]))
    let long = String(repeating: "long ", count: 8)
    #expect(
      hearChanges(from: "a", to: [long], describe: { $0 })
        == withTargetForm([
          "now a", "a -> \(long)", "now \(long)",
        ]))
    #expect(
      hearChanges(
        from: Padded(wide: 1, narrow: 2), to: [Padded(wide: 3, narrow: 4)],
        describe: { "\($0.wide)/\($0.narrow)" })
        == withTargetForm(["now 1/2", "1/2 -> 3/4", "now 3/4"]))
    #expect(
      hearChanges(from: ShapeOutcome.none, to: [.message("m", 5)], describe: { "\($0)" })
        == withTargetForm(["now none", "none -> message(\"m\", 5)", "now message(\"m\", 5)"]))
    #expect(
      hearChanges(from: ValueToken(1), to: [ValueToken(2)], describe: { "\($0.number)" })
        == withTargetForm(["now 1", "1 -> 2", "now 2"]))
    #expect(
      hearChanges(from: (), to: [()], describe: { _ in "v" })
        == withTargetForm(["now v", "v -> v", "now v"]))
  }

  @Test(
    "Every handler shape, from generic code, hears functions, existentials, class-bound existentials, metatypes, empty values, optional functions and tuples holding functions"
  )
  func everyKind() async {
    #expect(hearEveryShape({ (x: Int) in x * 2 }, describe: { "\($0(4))" }) == everyShape("8"))
    #expect(
      hearEveryShape(Label(label: "tag") as any Labelled, describe: { $0.label })
        == everyShape("tag"))
    #expect(
      hearEveryShape(NumberedObject(3) as any Numbered, describe: { "\($0.number)" })
        == everyShape("3"))
    #expect(hearEveryShape(Int.self as Any.Type, describe: { "\($0)" }) == everyShape("Int"))
    #expect(hearEveryShape(Empty(), describe: { _ in "empty" }) == everyShape("empty"))
    #expect(hearEveryShape(OnlyCase.only, describe: { "\($0)" }) == everyShape("only"))
    #expect(
      hearEveryShape(Optional<() -> Int>.some({ 7 }), describe: { "\($0?() ?? 0)" })
        == everyShape("7"))
    #expect(
      hearEveryShape((1, { (x: Int) in x + 1 }), describe: { "\($0.0) \($0.1(5))" })
        == everyShape("1 6"))
    #expect(await KindListener().hearFunctionsAndTypes() == ["f 20", "type Int", "step 2 100"])
  }

  @Test("An observable value's closure forms and its changes hear old and new values as set")
  func observableValues() {
    let transcript = LayoutTranscript()
    let first = StationReading(station: "JFK", temperature: 1.5, samples: [1])
    let level = ObservableValue(first)
    let subscriptions = [
      level.observe { old, new in transcript.lines.append("change \(old.station) \(new.station)") },
      level.observeValue { transcript.lines.append("value \($0.station) \($0.samples)") },
      level.changes.observe { change in
        transcript.lines.append("event \(change.old.samples) \(change.new.samples)")
      },
    ]
    level.value = StationReading(station: "EWR", temperature: 0, samples: [8, 9])
    let padded = ObservableValue(Padded(wide: 10, narrow: 20))
    let paddedSubscription = padded.observe { old, new in
      transcript.lines.append("padded \(old.wide)/\(old.narrow) \(new.wide)/\(new.narrow)")
    }
    padded.value = Padded(wide: 30, narrow: 40)
    withExtendedLifetime((subscriptions, paddedSubscription)) {}
    #expect(
      transcript.lines == [
        "value JFK [1]", "change JFK EWR", "value EWR [8, 9]", "event [1] [8, 9]",
        "padded 10/20 30/40",
      ])
  }
}
