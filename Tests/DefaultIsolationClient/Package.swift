// swift-tools-version: 6.2
// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import PackageDescription

// A client of Multicast whose app target is compiled as a new Xcode app
// project's is: Swift 6 with main-actor isolation by default, a setting that
// needs tools 6.2, newer than the library's manifest. `.ci/run` builds and
// tests it.
//
// Xcode's Approachable Concurrency setting, also on in new projects, adds two
// upcoming features in Swift 6 mode; APPROACHABLE_CONCURRENCY=1 turns them on
// here, so that both kinds of app target are checked.

// The library is the package two folders up. SwiftPM names a path dependency
// after its folder, which differs from clone to clone, so read that name here.
let library = String(Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "")

let approachable: [SwiftSetting] =
  Context.environment["APPROACHABLE_CONCURRENCY"] == nil
  ? []
  : [
    .enableUpcomingFeature("InferIsolatedConformances"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
  ]

let package = Package(
  name: "default-isolation-client",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
  dependencies: [
    .package(path: "../..")
  ],
  targets: [
    // A library of the app's, written as libraries are, with no default
    // isolation: its observer protocol has none.
    .target(
      name: "Downloads",
      dependencies: [.product(name: "Multicast", package: library)]),
    // The app: every declaration without an annotation is on the main actor.
    .target(
      name: "App",
      dependencies: ["Downloads", .product(name: "Multicast", package: library)],
      swiftSettings: [.defaultIsolation(MainActor.self)] + approachable),
    .testTarget(name: "AppTests", dependencies: ["App", "Downloads"]),
  ],
  swiftLanguageModes: [.v6]
)
