#!/usr/bin/env bash
# Copyright (c) 2026 the swift-multicast authors.
# Licensed under the Apache License, Version 2.0; see LICENSE.
#
# Times the weather-station demo (release build: read, parse, filter by
# station, broadcast to four observers: three displays and the daily log)
# against Python's csv module reading the same 500,000-row file, side by side
# in one run, and prints the ratio.
# Also prints the demo's peak memory for a small and the large file: reading
# streams, so the two should be close.
#
#     Scripts/csv-speed.sh [ROWS] [RUNS]      defaults: 500000 rows, 5 runs
set -euo pipefail
cd "$(dirname "$0")/.."

rows=${1:-500000}
runs=${2:-5}
source_file=../shared/data/nyc-weather-2013.csv
[[ -r $source_file ]] || { echo "csv-speed: $source_file is needed" >&2; exit 2; }
command -v python3 >/dev/null || { echo "csv-speed: python3 is needed" >&2; exit 2; }

swift build -c release --product weather-station >/dev/null
demo=$(swift build -c release --show-bin-path)/weather-station

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
big=$work/weather-$rows.csv
# The header, then the year's rows repeated until there are $rows of them.
awk -v rows="$rows" 'NR == 1 { print; next } { line[++n] = $0 }
  END { for (i = 0; i < rows; i++) print line[i % n + 1] }' "$source_file" >"$big"
echo "$rows rows, $(wc -c <"$big" | tr -d ' ') bytes: $big"

python_reader='import csv,sys; sum(1 for _ in csv.reader(open(sys.argv[1], newline="")))'

# Wall-clock milliseconds of one run of a command, its output discarded.
milliseconds() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1 || { echo "csv-speed: '$*' failed" >&2; exit 1; }
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}

median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

ours=() python=() ours_station=()
for ((i = 1; i <= runs; i++)); do
  # Alternate, so that both see the same machine.
  python+=("$(milliseconds python3 -c "$python_reader" "$big")")
  ours+=("$(milliseconds "$demo" --input "$big")")
  ours_station+=("$(milliseconds "$demo" --input "$big" --station JFK)")
done

m_python=$(median "${python[@]}")
m_ours=$(median "${ours[@]}")
m_station=$(median "${ours_station[@]}")
echo
echo "median of $runs runs, milliseconds (every run: python ${python[*]}; ours ${ours[*]})"
printf '%-52s %8s\n' "Python csv.reader, reading every row" "$m_python"
printf '%-52s %8s\n' "weather-station --input, replaying every row" "$m_ours"
printf '%-52s %8s\n' "weather-station --input --station JFK" "$m_station"
awk -v p="$m_python" -v o="$m_ours" -v s="$m_station" 'BEGIN {
  printf "ours / Python: %.2f (all stations), %.2f (JFK only); below 1 is faster\n", o / p, s / p
}'

if [[ -x /usr/bin/time ]]; then
  echo
  echo "peak memory (maximum resident set, KiB):"
  for file in "$source_file" "$big"; do
    /usr/bin/time -f %M -o "$work/memory" "$demo" --input "$file" >/dev/null 2>&1 || true
    kib=$(tail -n 1 "$work/memory")
    printf '  %-9s rows %8s\n' "$(($(wc -l <"$file") - 1))" "$kib"
  done
fi
