#!/usr/bin/env bash
# Copyright (c) 2026 the swift-multicast authors.
# Licensed under the Apache License, Version 2.0; see LICENSE.
# Measures line coverage of the library (Sources/Multicast only) by the whole
# test suite and fails below the threshold (95% unless given).
#
#   Scripts/coverage.sh        # prints the per-file report and the total
#   Scripts/coverage.sh 97     # another threshold
set -euo pipefail
cd "$(dirname "$0")/.."
threshold="${1:-95}"
scratch=.build-coverage

swift test --disable-xctest --enable-code-coverage --scratch-path "$scratch" >&2
profile="$(dirname "$(swift test --scratch-path "$scratch" --show-codecov-path)")/default.profdata"
binary="$(find "$scratch/debug/" -maxdepth 1 -name '*PackageTests.xctest' | head -1)"
# The toolchain's own llvm-cov reads its profiles; another version may not.
llvm_cov="$(dirname "$(readlink -f "$(command -v swift)")")/llvm-cov"

report="$("$llvm_cov" report "$binary" -instr-profile="$profile" $(find Sources/Multicast -name '*.swift' | sort))"
echo "$report"
# The TOTAL row: regions, missed, cover, functions, missed, executed, lines, missed, cover, ...
total="$(echo "$report" | awk '/^TOTAL/ { print $10 }' | tr -d '%')"
echo
echo "Line coverage of Sources/Multicast: ${total}% (threshold ${threshold}%)"
awk -v total="$total" -v threshold="$threshold" 'BEGIN { exit !(total >= threshold) }' || {
  echo "coverage is below ${threshold}%"
  exit 1
}
