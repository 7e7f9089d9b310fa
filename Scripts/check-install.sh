#!/usr/bin/env bash
# Copyright (c) 2026 the swift-multicast authors.
# Licensed under the Apache License, Version 2.0; see LICENSE.
# Does what the README's "Install" says, as a new user would: a new
# executable package, outside this repository, whose manifest is the README's
# fragment, with its dependency line exactly as the README gives it but for
# the URL, which points at a git repository on this machine
# (file://.../swift-multicast.git). It resolves that line as SwiftPM resolves
# it from the real URL (a version, a branch or a revision of a git
# repository), builds, and runs the README's event snippet, whose output it
# checks.
#
# That repository holds the commit checked out here (HEAD, committed work
# only) as its `main` branch, and the tags of this clone, so the check works
# on a clone of main, on any other branch, in a worktree and on a detached
# HEAD alike, shallow or not.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The repository that the README's URL stands for, named as the URL names it:
# SwiftPM names a dependency after the last part of its URL.
url_name=swift-multicast
remote="$work/$url_name.git"
git init -q --bare "$remote"
# Fetched rather than pushed: a shallow clone can be fetched from, not pushed.
git -C "$remote" fetch -q --update-shallow "$(pwd)" "+HEAD:refs/heads/main" "+refs/tags/*:refs/tags/*"
[ "$(git -C "$remote" rev-parse main)" = "$(git rev-parse HEAD)" ] || {
  echo "could not make a repository whose main branch is HEAD"
  exit 1
}

# The README's manifest fragment: its dependency line with the URL replaced,
# and its target made executable so that the new package can run.
client="$work/my-app"
mkdir -p "$client/Sources/MyApp"
python3 - "$remote" "$client" <<'PYTHON'
import pathlib, re, sys
remote, client = sys.argv[1], pathlib.Path(sys.argv[2])
readme = pathlib.Path("README.md").read_text()
fragment = next(block for block in re.findall(r"```swift\n(.*?)```", readme, re.S)
                if block.startswith("// Package.swift"))
url = "https://github.com/swift-multicast/swift-multicast"
dependency = [line for line in fragment.splitlines() if ".package(url:" in line]
if len(dependency) != 1 or f'"{url}"' not in dependency[0]:
    sys.exit(f"README.md's manifest fragment has no `.package(url: \"{url}\", ...)` line")
print("The README's dependency:", dependency[0].strip())
body = fragment.removeprefix("// Package.swift\n").replace(f'"{url}"', f'"file://{remote}"')
if body.count(".target(") != 1:
    sys.exit("README.md's manifest fragment should have one target")
body = body.replace(".target(", ".executableTarget(")
(client / "Package.swift").write_text(
    "// swift-tools-version: 6.1\nimport PackageDescription\n\n"
    f'let package = Package(\n  name: "my-app",\n{body})\n')
snippet = next(block for block in re.findall(r"```swift\n(.*?)```", readme, re.S)
               if block.startswith("let tick = EventSender<Int>()"))
(client / "Sources/MyApp/main.swift").write_text("import Multicast\n\n" + snippet)
PYTHON

# A cache of its own, so that no earlier resolution of the same URL is used.
swift package --package-path "$client" --cache-path "$work/cache" resolve
swift build --package-path "$client" --cache-path "$work/cache" >&2
output="$(swift run --package-path "$client" --cache-path "$work/cache" --skip-build MyApp)"
if [ "$output" != "tick 1" ]; then
  echo "the README's client printed '$output', not 'tick 1'"
  exit 1
fi
echo "A new package that depends on this repository as the README says resolves, builds and runs: $output"
