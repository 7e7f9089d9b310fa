#!/usr/bin/env bash
# Copyright (c) 2026 the swift-multicast authors.
# Licensed under the Apache License, Version 2.0; see LICENSE.
# Runs every benchmark of the Benchmarks package in one run and prints one
# table: nanoseconds per observer per broadcast for each design and size, the
# ratios, allocations per broadcast, add/remove cost and bytes per observer.
#
#   Scripts/benchmark.sh              # everything (about 5 minutes)
#   Scripts/benchmark.sh '.*n=1000 .*'  # only benchmarks whose whole name matches
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"

filter="${1:-.*}"
out="$(pwd)/.build/benchmark-results"
rm -rf "$out" && mkdir -p "$out"

swift package --allow-writing-to-directory "$out" benchmark \
  --filter "$filter" --format jmh --path "$out" --no-progress >&2
swift build -c release --product Report >&2
echo "Run: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), $(nproc 2>/dev/null || sysctl -n hw.ncpu) cores, release build, $(swift --version 2>/dev/null | head -1)"
echo
.build/release/Report "$out/Current_run.jmh.json"
