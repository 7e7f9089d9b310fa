// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// What the dead and the busy cost the living (issue 49): observers and
// actors that die or cancel without being removed, and a sender held to
// deliver other threads' values. Each scenario prints its table; each is
// bounded to end within a minute on today's code.
//
//   swift run -c release --package-path Benchmarks Housekeeping [SCENARIO...]
//
// SCENARIO is dead-observers, dead-actors, idle-destinations,
// captive-sender or lagging-observer; all five by default.

import Foundation

let scenarios: [(name: String, run: () async -> Void)] = [
  ("dead-observers", { runDeadObservers() }),
  ("dead-actors", { await runDeadActors() }),
  ("idle-destinations", { await runIdleDestinations() }),
  ("captive-sender", { runCaptiveSender() }),
  ("lagging-observer", { await runLaggingObserver() }),
]

let chosen = Set(CommandLine.arguments.dropFirst())
let unknown = chosen.subtracting(scenarios.map(\.name))
guard unknown.isEmpty else {
  print("unknown scenario: \(unknown.sorted().joined(separator: ", "))")
  print("usage: Housekeeping [\(scenarios.map(\.name).joined(separator: "|"))...]")
  exit(2)
}
for scenario in scenarios where chosen.isEmpty || chosen.contains(scenario.name) {
  let start = clock.now
  await scenario.run()
  print("(\(scenario.name): \(readable(clock.now - start)))\n")
}
