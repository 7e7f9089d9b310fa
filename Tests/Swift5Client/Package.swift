// swift-tools-version: 6.0
// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import PackageDescription

// A client of Multicast in Swift 5 language mode, as most apps still are.
// Its tests are the documentation's snippets (links to the library's own
// snippet tests): they must build, and run as documented, in Swift 5 mode
// too. STRICT_CONCURRENCY picks the checking, minimal (the default of a
// Swift 5 target), targeted or complete; `.ci/run` builds all three.

// The library is the package two folders up. SwiftPM names a path dependency
// after its folder, which differs from clone to clone, so read that name here.
let library = String(Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "")

let checking = Context.environment["STRICT_CONCURRENCY"] ?? "minimal"

let package = Package(
  name: "swift5-client",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
  dependencies: [
    .package(path: "../..")
  ],
  targets: [
    .testTarget(
      name: "Snippets",
      dependencies: [.product(name: "Multicast", package: library)],
      swiftSettings: [.unsafeFlags(["-strict-concurrency=\(checking)"])])
  ],
  swiftLanguageModes: [.v5]
)
