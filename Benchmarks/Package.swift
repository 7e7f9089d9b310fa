// swift-tools-version: 6.1
// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import PackageDescription

// The library is the package one folder up. SwiftPM names a path dependency
// after its folder, which differs from clone to clone, so read that name here.
let library = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "")

// Benchmarks live in their own package so that their dependencies never enter
// the dependency graph of the library's users.
let package = Package(
  name: "swift-multicast-benchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(path: ".."),
    .package(
      url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
  ],
  targets: [
    // The designs a user would otherwise pick, broadcasting to the same observers.
    .target(
      name: "Designs",
      dependencies: [
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "Multicast", package: library),
      ]
    ),
    // Broadcast, add and remove timings and allocation counts (package-benchmark).
    .executableTarget(
      name: "Broadcast",
      dependencies: [
        "Designs",
        .product(name: "Multicast", package: library),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/Broadcast",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // Bytes per registered observer, and the table of a benchmark run.
    .executableTarget(
      name: "Report",
      dependencies: ["Designs", "CHeapStatistics", .product(name: "Multicast", package: library)]
    ),
    .target(name: "CHeapStatistics"),
    // How long a stream of values holds the main actor.
    .executableTarget(
      name: "Responsiveness", dependencies: [.product(name: "Multicast", package: library)]),
    // What dead observers, dead actors and a busy sender cost the living.
    .executableTarget(
      name: "Housekeeping",
      dependencies: ["Designs", "CHeapStatistics", .product(name: "Multicast", package: library)]
    ),
    // One operation repeated, for instruction counts (Scripts/instructions.sh).
    .executableTarget(
      name: "Instructions",
      dependencies: [
        "Designs", .product(name: "Multicast", package: library),
        .product(name: "OpenCombine", package: "OpenCombine"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
