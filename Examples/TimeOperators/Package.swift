// swift-tools-version: 6.1
// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import PackageDescription

// Time operators for events and observable values: debounce and throttle,
// from swift-async-algorithms, applied to `values`. A package of its own, so
// that the library keeps no dependency. `.ci/run` builds and tests it.

// The library is the package two folders up. SwiftPM names a path dependency
// after its folder, which differs from clone to clone, so read that name here.
let library = String(Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "")

let package = Package(
  name: "time-operators",
  // What swift-async-algorithms' debounce and throttle need.
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  dependencies: [
    .package(path: "../.."),
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.0.0"),
  ],
  targets: [
    .target(
      name: "TimeOperators",
      dependencies: [
        .product(name: "Multicast", package: library),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ]),
    .testTarget(
      name: "TimeOperatorsTests",
      dependencies: ["TimeOperators", .product(name: "Multicast", package: library)]),
  ],
  swiftLanguageModes: [.v6]
)
