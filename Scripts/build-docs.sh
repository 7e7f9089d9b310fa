#!/usr/bin/env bash
# Copyright (c) 2026 the swift-multicast authors.
# Licensed under the Apache License, Version 2.0; see LICENSE.
# Builds the DocC documentation of the Multicast module with the toolchain
# alone (no plugin), into docs-site/, failing on any warning, such as a broken
# symbol link. Checks first that every Swift snippet of the articles is also in
# Tests/MulticastTests/DocumentationSnippetTests.swift, where it is compiled
# and run.
#
#   Scripts/build-docs.sh            # build into docs-site/
#   Scripts/build-docs.sh --preview  # then serve it on http://localhost:8000
set -euo pipefail
cd "$(dirname "$0")/.."
catalog=Sources/Multicast/Multicast.docc
snippets=Tests/MulticastTests/DocumentationSnippetTests.swift
site=docs-site
scratch=.build-docs

echo "Checking the articles' snippets against $snippets"
python3 - "$snippets" "$catalog" <<'PYTHON'
import pathlib, re, sys
def lines(text):
    return [line.strip() for line in text.splitlines() if line.strip()]
tested = lines(pathlib.Path(sys.argv[1]).read_text())
def contains(run):
    return any(tested[i:i + len(run)] == run for i in range(len(tested) - len(run) + 1))
missing = []
for article in sorted(pathlib.Path(sys.argv[2]).rglob("*.md")):
    for block in re.findall(r"```swift\n(.*?)```", article.read_text(), re.S):
        run = lines(block)
        # Code of other frameworks, shown for comparison, says so first.
        if run and run[0].startswith("// Before:"):
            continue
        if run and not contains(run):
            missing.append(f"{article}: a snippet is not in the tests:\n  " + "\n  ".join(run[:3]))
if missing:
    print("\n".join(missing))
    sys.exit(1)
PYTHON

echo "Dumping the symbol graph"
# SwiftPM also tries its generated test-discovery modules and fails on them
# after writing the others, so judge by the Multicast graph, written afresh.
find "$scratch" -path '*symbolgraph*' -name '*.symbols.json' -delete 2>/dev/null || true
swift package --scratch-path "$scratch" dump-symbol-graph --minimum-access-level public \
  >"$scratch-symbolgraph.log" 2>&1 || true
graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT
find "$scratch" -path '*symbolgraph*' -name 'Multicast*.symbols.json' -exec cp {} "$graphs" \;
[ -n "$(ls "$graphs")" ] || {
  cat "$scratch-symbolgraph.log"
  echo "no symbol graph for Multicast was written"
  exit 1
}

echo "Converting the catalog"
docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
rm -rf "$site"
"$docc" convert "$catalog" \
  --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name Multicast \
  --fallback-bundle-identifier swift-multicast.Multicast \
  --output-path "$site" \
  --transform-for-static-hosting \
  --warnings-as-errors
echo "Documentation: $site/documentation/multicast/index.html"

if [ "${1:-}" = "--preview" ]; then
  echo "Serving on http://localhost:8000/documentation/multicast/"
  cd "$site" && python3 -m http.server 8000
fi
