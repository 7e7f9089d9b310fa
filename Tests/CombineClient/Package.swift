// swift-tools-version: 6.1
// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import PackageDescription

// A client of Multicast whose files also import Combine, as every SwiftUI view
// file does on Apple platforms (SwiftUI re-exports Combine). On Linux,
// OpenCombine stands in for Combine: it declares the same public names
// (`Subscription`, `Cancellable`, `AnyCancellable`, `Subscribers`, ...), so a
// name of Multicast that clashes with one of Combine's is ambiguous here as it
// would be in an app. Its tests hold the README's and the articles' code,
// written unqualified, and run it. `.ci/run` builds and tests it.

// The library is the package two folders up. SwiftPM names a path dependency
// after its folder, which differs from clone to clone, so read that name here.
let library = String(Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "")

let package = Package(
  name: "combine-client",
  platforms: [.macOS(.v10_15), .iOS(.v13)],
  dependencies: [
    .package(path: "../.."),
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
  ],
  targets: [
    .testTarget(
      name: "CombineClientTests",
      dependencies: [
        .product(name: "Multicast", package: library),
        .product(name: "OpenCombine", package: "OpenCombine"),
      ])
  ],
  swiftLanguageModes: [.v6]
)
