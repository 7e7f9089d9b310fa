// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import Foundation

// Prints the benchmark table: nanoseconds per observer per broadcast for every
// design and size, our ratio to the floor and to each peer, add and remove
// cost, allocations per broadcast, and bytes per registered observer.
//
// Usage: Report <package-benchmark JMH export>

/// One benchmark's median wall-clock time per iteration, in nanoseconds, and
/// its median allocation count per iteration.
struct Measurement {
  var nanoseconds: Double
  var allocations: Double
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("Report: \(message)\n".utf8))
  exit(1)
}

func loadMeasurements(_ path: String) -> [String: Measurement] {
  guard let data = FileManager.default.contents(atPath: path) else {
    fail("cannot read \(path)")
  }
  guard let runs = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
    fail("\(path) is not a JMH export (a JSON array of benchmarks)")
  }
  var measurements: [String: Measurement] = [:]
  for run in runs {
    guard let name = (run["benchmark"] as? String)?.split(separator: ".").last,
      let metrics = run["secondaryMetrics"] as? [String: [String: Any]],
      let time = metrics["Time (wall clock)"]
    else { fail("\(path): a benchmark without a wall-clock time") }
    measurements[String(name)] = Measurement(
      nanoseconds: median(time) * scale(of: time["scoreUnit"] as? String),
      allocations: metrics["Malloc (total)"].map(median) ?? .nan)
  }
  return measurements
}

func median(_ metric: [String: Any]) -> Double {
  guard let percentiles = metric["scorePercentiles"] as? [String: Any],
    let median = (percentiles["50.0"] as? NSNumber)?.doubleValue
  else { fail("a metric without a median") }
  return median
}

func scale(of unit: String?) -> Double {
  switch unit {
  case "ns": 1
  case "μs", "us": 1e3
  case "ms": 1e6
  case "s": 1e9
  case "#": 1
  default: fail("unknown time unit \(unit ?? "none")")
  }
}

func format(_ value: Double, digits: Int = 1) -> String {
  value.isNaN ? "n/a" : String(format: "%.\(digits)f", value)
}

guard CommandLine.arguments.count == 2 else {
  fail("usage: Report <package-benchmark JMH export>")
}
let measurements = loadMeasurements(CommandLine.arguments[1])

let designs = [
  "multicast", "floor", "dictionary", "lock+copy", "opencombine", "notificationcenter",
]
let sizes = [1, 10, 100, 1_000, 10_000]

/// Nanoseconds per observer per broadcast, from a run of `max(1, 10,000 / n)`
/// broadcasts to `n` observers.
func perObserver(_ design: String, _ n: Int) -> Double {
  let rounds = max(1, 10_000 / n)
  guard let measurement = measurements["broadcast_\(design)_n=\(n)_x\(rounds)"] else { return .nan }
  return measurement.nanoseconds / Double(rounds * n)
}

print("### Broadcast: nanoseconds per observer (median)\n")
print("| observers | " + designs.joined(separator: " | ") + " |")
print("|---:|" + String(repeating: "---:|", count: designs.count))
for n in sizes {
  print("| \(n) | " + designs.map { format(perObserver($0, n)) }.joined(separator: " | ") + " |")
}

print("\n### Ratios (multicast / floor; peer / multicast)\n")
print(
  "| observers | multicast / floor | "
    + designs.dropFirst(2).map { "\($0) / multicast" }.joined(separator: " | ") + " |")
print("|---:|---:|" + String(repeating: "---:|", count: designs.count - 2))
for n in sizes {
  let ours = perObserver("multicast", n)
  let ratios = [perObserver("floor", n)] + designs.dropFirst(2).map { perObserver($0, n) }
  let cells =
    [format(ours / ratios[0], digits: 2)] + ratios.dropFirst().map { format($0 / ours, digits: 2) }
  print("| \(n) | " + cells.joined(separator: " | ") + " |")
}

print("\n### Heap allocations per broadcast (median)\n")
print("| observers | " + designs.joined(separator: " | ") + " |")
print("|---:|" + String(repeating: "---:|", count: designs.count))
for n in sizes {
  let rounds = max(1, 10_000 / n)
  let cells = designs.map { design in
    format(
      (measurements["broadcast_\(design)_n=\(n)_x\(rounds)"]?.allocations ?? .nan) / Double(rounds),
      digits: 2)
  }
  print("| \(n) | " + cells.joined(separator: " | ") + " |")
}

/// Nanoseconds per operation of the benchmark whose name starts with
/// `prefix`, from its `xN` suffix, the number of operations per iteration.
func perOperation(_ prefix: String) -> (nanoseconds: Double, allocations: Double) {
  guard let (name, measurement) = measurements.first(where: { $0.key.hasPrefix(prefix + "_x") }),
    let operations = Double(name.split(separator: "x").last ?? "")
  else { return (.nan, .nan) }
  return (measurement.nanoseconds / operations, measurement.allocations / operations)
}

print("\n### Add then remove: nanoseconds per operation (median)\n")
print("| observers | multicast | dictionary | multicast / dictionary |")
print("|---:|---:|---:|---:|")
for n in [1, 10, 100, 100_000] {
  let ours = perOperation("add+remove_multicast_n=\(n)").nanoseconds
  let peer = perOperation("add+remove_dictionary_n=\(n)").nanoseconds
  print("| \(n) | \(format(ours)) | \(format(peer)) | \(format(ours / peer, digits: 2)) |")
}

print("\n### Closures and values at 1,000 subscribers: nanoseconds per subscriber (median)\n")
print("| face | ns | allocations per send | compared with | ns | ratio |")
print("|---|---:|---:|---|---:|---:|")
for (face, peer) in [
  ("event-target", "multicast"), ("event-closure", "opencombine"),
  ("observable-value", "currentvaluesubject"),
] {
  let ours = perObserver(face, 1_000)
  let theirs = perObserver(peer, 1_000)
  let allocations = (measurements["broadcast_\(face)_n=1000_x10"]?.allocations ?? .nan) / 10
  print(
    "| \(face) | \(format(ours)) | \(format(allocations, digits: 2)) | \(peer) | \(format(theirs)) "
      + "| \(format(ours / theirs, digits: 2)) |")
}

print("\n### Subscribe then cancel 100 closure subscribers: nanoseconds per operation (median)\n")
let subscribing = perOperation("subscribe+cancel_event_n=100")
let sinking = perOperation("subscribe+cancel_opencombine_n=100")
print("| event | opencombine | opencombine / event | event allocations per subscribe |")
print("|---:|---:|---:|---:|")
print(
  "| \(format(subscribing.nanoseconds)) | \(format(sinking.nanoseconds)) "
    + "| \(format(sinking.nanoseconds / subscribing.nanoseconds, digits: 2)) "
    + "| \(format(subscribing.allocations * 2, digits: 2)) |")

print("\n### Two threads broadcasting through one subject to 10 observers\n")
print("Throughput with two threads over throughput with one (2.0 is perfect scaling).\n")
print("| design | one thread, ns per broadcast | two threads, ns per broadcast | scaling |")
print("|---|---:|---:|---:|")
for design in ["multicast", "floor", "lock+copy", "multicast-unobserved"] {
  let one = perOperation("threads_\(design)_t=1_n=10").nanoseconds
  let two = perOperation("threads_\(design)_t=2_n=10").nanoseconds
  print("| \(design) | \(format(one)) | \(format(two / 2)) | \(format(2 * one / two, digits: 2)) |")
}

print("\n### A background task broadcasting to 10 main-actor observers\n")
print("Beside the same broadcasts made on the main actor, delivered before they return.\n")
print("| design | µs per event | allocations per event | time / on the main actor's |")
print("|---|---:|---:|---:|")
let onMain = perOperation("deliver_on-main_n=10")
for (design, label) in [
  ("on-main", "the same broadcast on the main actor"),
  ("hand-written-hop", "a hand-written queue of closures"),
  ("multicast", "onMainActor"), ("event", "an event's send"),
  ("task-per-event", "a Task per event"),
  ("asyncstream", "an AsyncStream pump"),
] {
  let (nanoseconds, allocations) = perOperation("deliver_\(design)_n=10")
  print(
    "| \(label) | \(format(nanoseconds / 1_000, digits: 2)) | \(format(allocations, digits: 1)) "
      + "| \(format(nanoseconds / onMain.nanoseconds, digits: 2)) |")
}
let hop = perOperation("deliver_multicast_n=10").nanoseconds
print(
  "\nA Task per event takes "
    + "\(format(perOperation("deliver_task-per-event_n=10").nanoseconds / hop, digits: 2)) "
    + "times as long as onMainActor; onMainActor takes "
    + "\(format(hop / perOperation("deliver_hand-written-hop_n=10").nanoseconds, digits: 2)) "
    + "times as long as the hand-written queue.")

print("\n### Heap bytes per registered observer (glibc, chunk overhead included)\n")
if let first = footprints(observers: 1_000) {
  print("| observers | " + first.map(\.design).joined(separator: " | ") + " |")
  print("|---:|" + String(repeating: "---:|", count: first.count))
  for n in [1_000, 10_000, 100_000, 1_000_000] {
    let row = n == 1_000 ? first : footprints(observers: n) ?? []
    print("| \(n) | " + row.map { format($0.bytes) }.joined(separator: " | ") + " |")
  }
} else {
  print("Not measured: this platform's allocator has no mallinfo2.")
}
