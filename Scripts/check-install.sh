#!/usr/bin/env bash
# Copyright (c) 2026 the swift-multicast authors.
# Licensed under the Apache License, Version 2.0; see LICENSE.
# Does what the README's "Install" says, as a new user would: a new
# executable package that depends on this clone by path (the form for a
# clone with no release tag), imports Multicast and runs the README's event
# snippet, whose output it checks.
set -euo pipefail
cd "$(dirname "$0")/.."
repository="$(pwd)"
client="$(mktemp -d)/readme-client"
trap 'rm -rf "$(dirname "$client")"' EXIT
mkdir -p "$client/Sources/ReadmeClient"

# The README's manifest fragment, with the path form for the URL form.
grep -q '.package(path: "../swift-multicast")' README.md || {
  echo "README.md no longer gives the path form of the dependency"
  exit 1
}
cat >"$client/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "readme-client",
  dependencies: [
    .package(path: "$repository"),
  ],
  targets: [
    .executableTarget(name: "ReadmeClient", dependencies: [
      .product(name: "Multicast", package: "$(basename "$repository")"),
    ]),
  ]
)
MANIFEST
# The README's event snippet, taken from the README itself.
{
  echo "import Multicast"
  echo
  python3 - <<'PYTHON'
import pathlib, re
blocks = re.findall(r"```swift\n(.*?)```", pathlib.Path("README.md").read_text(), re.S)
print(next(block for block in blocks if block.startswith("let tick = EventSender<Int>()")), end="")
PYTHON
} >"$client/Sources/ReadmeClient/main.swift"

output="$(swift run --package-path "$client" ReadmeClient 2>/dev/null)"
if [ "$output" != "tick 1" ]; then
  echo "the README's client printed '$output', not 'tick 1'"
  exit 1
fi
echo "A new package that depends on this clone as the README says builds and runs: $output"
