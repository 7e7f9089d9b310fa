#!/usr/bin/env bash
# Copyright (c) 2026 the swift-multicast authors.
# Licensed under the Apache License, Version 2.0; see LICENSE.
# Counts the instructions of one operation of each case of the Benchmarks
# package's Instructions executable: callgrind runs it with K and 2K
# repetitions, and the difference over K is one operation with the set-up
# counted out. Instruction counts do not drift with the load of a shared
# machine, as times do. callgrind cannot read the debug information Swift
# writes, so it runs a stripped copy of the release binary.
#
#   Scripts/instructions.sh                 # every case
#   Scripts/instructions.sh event-send-1 broadcast-1
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"

command -v valgrind >/dev/null || { echo "instructions.sh needs valgrind (callgrind)" >&2; exit 1; }
swift build -c release --product Instructions >&2
binary="$(swift build -c release --show-bin-path)/Instructions"
stripped="$(mktemp -d)/Instructions"
strip -o "$stripped" "$binary"

k=20000
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  mapfile -t cases < <("$stripped" --list)
fi

count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$stripped" "$1" "$2" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

echo "Instructions per operation (callgrind, release, stripped; K=$k, (I(2K) - I(K)) / K)"
printf '%-28s %10s\n' case instructions
for name in "${cases[@]}"; do
  once=$(count "$name" "$k")
  twice=$(count "$name" $((2 * k)))
  printf '%-28s %10d\n' "$name" $(((twice - once) / k))
done
