#!/usr/bin/env bash
# Copyright (c) 2026 the swift-multicast authors.
# Licensed under the Apache License, Version 2.0; see LICENSE.
# Counts the instructions and heap allocations of one operation of each case
# of the Benchmarks package's Instructions executable: callgrind runs it with
# K and 2K repetitions, and the difference over K is one operation with the
# set-up counted out. Instruction counts do not drift with the load of a shared
# machine, as times do. callgrind cannot read the debug information Swift
# writes, so it runs a stripped copy of the release binary.
#
#   Scripts/instructions.sh                 # every case
#   Scripts/instructions.sh event-send-1 broadcast-1
#   K=2000 Scripts/instructions.sh delegate-fill-empty-100   # fewer repetitions
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"

command -v valgrind >/dev/null || { echo "instructions.sh needs valgrind (callgrind)" >&2; exit 1; }
swift build -c release --product Instructions >&2
binary="$(swift build -c release --show-bin-path)/Instructions"
stripped="$(mktemp -d)/Instructions"
strip -o "$stripped" "$binary"

k=${K:-20000}
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  mapfile -t cases < <("$stripped" --list)
fi

profile="$(dirname "$stripped")/callgrind.out"

# Prints the instructions callgrind collected and the calls to the C
# allocator (malloc, calloc, realloc, posix_memalign) it saw.
count() {
  local instructions
  instructions=$(valgrind --tool=callgrind --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$profile" "$stripped" "$1" "$2" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
  local allocations
  # glibc's posix_memalign calls malloc itself (Swift's raw allocations go
  # through it): a malloc called from the memalign path is not counted again.
  allocations=$(awk '
    /^fn=/ { inMemalign = ($0 ~ /memalign/) }
    /^cfn=/ {
      allocator = ($0 ~ /^cfn=(malloc|calloc|realloc|posix_memalign)$/) \
        && !(inMemalign && $0 ~ /^cfn=malloc$/)
    }
    /^calls=/ && allocator { total += $1 == "" ? 0 : substr($1, 7) }
    END { print total + 0 }' "$profile")
  echo "$instructions $allocations"
}

echo "Per operation (callgrind, release, stripped; K=$k, (count(2K) - count(K)) / K)"
printf '%-28s %12s %12s\n' case instructions allocations
for name in "${cases[@]}"; do
  read -r once once_allocations < <(count "$name" "$k")
  read -r twice twice_allocations < <(count "$name" $((2 * k)))
  printf '%-28s %12d %12s\n' "$name" $(((twice - once) / k)) \
    "$(awk -v a="$once_allocations" -v b="$twice_allocations" -v k="$k" \
      'BEGIN { printf "%.2f", (b - a) / k }')"
done
