// swift-tools-version: 6.1
// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import PackageDescription

// `MULTICAST_INTERNAL_CHECKS=1 swift test` makes the storage check its own
// invariants after every mutation, at O(n) each: for tests, never for users.
let internalChecks = Context.environment["MULTICAST_INTERNAL_CHECKS"] != nil

let package = Package(
  name: "swift-multicast",
  // The floor of Swift concurrency. Scripts/check-availability.sh type-checks
  // the library for macOS 10.15 and iOS 13; tvOS, watchOS and visionOS share
  // the floor here but are not yet checked, so the documentation does not
  // claim them.
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
  products: [
    .library(name: "Multicast", targets: ["Multicast"])
  ],
  targets: [
    .target(
      name: "Multicast",
      dependencies: ["_MulticastAtomics"],
      exclude: ["Delivery/README.md", "Storage/README.md"],
      swiftSettings: internalChecks ? [.define("MULTICAST_INTERNAL_CHECKS")] : []),
    .target(name: "_MulticastAtomics"),
    .testTarget(name: "MulticastTests", dependencies: ["Multicast"]),
    // The documented Swift 6 forms, as a user's target writes them: plain
    // `import Multicast`, and none of the upcoming features below.
    .testTarget(name: "ConcurrencyClientTests", dependencies: ["Multicast"]),

    // Examples
    .target(name: "AudioPlayer", dependencies: ["Multicast"], path: "Examples/AudioPlayer/Library"),
    .executableTarget(
      name: "audio-player", dependencies: ["AudioPlayer", "Multicast"],
      path: "Examples/AudioPlayer/Demo"),
    .testTarget(name: "AudioPlayerTests", dependencies: ["AudioPlayer", "Multicast"]),
    .target(name: "StreamingCSV", path: "Examples/WeatherStation/CSV"),
    .testTarget(name: "StreamingCSVTests", dependencies: ["StreamingCSV"]),
    .target(
      name: "WeatherStation", dependencies: ["Multicast", "StreamingCSV"],
      path: "Examples/WeatherStation/Library"),
    .executableTarget(
      name: "weather-station", dependencies: ["WeatherStation"],
      path: "Examples/WeatherStation/Demo"),
    .testTarget(name: "WeatherStationTests", dependencies: ["WeatherStation", "Multicast"]),
    // Runs the built demos and checks what they print.
    .testTarget(name: "ExampleDemoTests"),
  ],
  swiftLanguageModes: [.v6]
)

// Stricter rules for every target but two: the C target, and the client tests,
// which compile as a user's Swift 6 target does (a user's package usually
// enables none of these), so that the forms the documentation shows are
// proven where users write them.
let plainTargets: Set = ["_MulticastAtomics", "ConcurrencyClientTests"]
for target in package.targets where !plainTargets.contains(target.name) {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("InternalImportsByDefault"),
      .enableUpcomingFeature("MemberImportVisibility"),
      .enableUpcomingFeature("InferIsolatedConformances"),
      .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    ]
}
