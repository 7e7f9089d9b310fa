#!/usr/bin/env bash
# Copyright (c) 2026 the swift-multicast authors.
# Licensed under the Apache License, Version 2.0; see LICENSE.
# Builds the DocC documentation of the Multicast module with the toolchain
# alone (no plugin), into docs-site/, failing on any warning, such as a broken
# symbol link. Checks first that every Swift snippet of the articles is also in
# Tests/MulticastTests/DocumentationSnippetTests.swift, and every one of the
# README in that file, Tests/MulticastTests/ReadmeSnippetTests.swift or
# Tests/MulticastTests/ReadmeIsolationTests.swift, where it is compiled and
# run. A snippet matches when its lines, trimmed and without the blank ones,
# appear in a row in the file. Two kinds of block are not checked: other
# code, shown for comparison, which starts with "// Before:", and a fragment
# of a manifest, which starts with "// Package.swift" (it cannot compile in a
# test target; Scripts/check-install.sh builds a package from it).
#
#   Scripts/build-docs.sh            # build into docs-site/
#   Scripts/build-docs.sh --preview  # then serve it on http://localhost:8000
set -euo pipefail
cd "$(dirname "$0")/.."
catalog=Sources/Multicast/Multicast.docc
snippets=Tests/MulticastTests/DocumentationSnippetTests.swift
site=docs-site
scratch=.build-docs

echo "Checking the articles' and the README's snippets against the tests"
python3 - "$snippets" "$catalog" Tests/MulticastTests/ReadmeSnippetTests.swift \
  Tests/MulticastTests/ReadmeIsolationTests.swift <<'PYTHON'
import pathlib, re, sys
def lines(text):
    return [line.strip() for line in text.splitlines() if line.strip()]
def contains(tested, run):
    return any(tested[i:i + len(run)] == run for i in range(len(tested) - len(run) + 1))
articles_tested = lines(pathlib.Path(sys.argv[1]).read_text())
readme_tested = [articles_tested] + [lines(pathlib.Path(path).read_text()) for path in sys.argv[3:]]
documents = [(article, [articles_tested]) for article in sorted(pathlib.Path(sys.argv[2]).rglob("*.md"))]
documents.append((pathlib.Path("README.md"), readme_tested))
missing = []
for document, tested in documents:
    for block in re.findall(r"```swift\n(.*?)```", document.read_text(), re.S):
        run = lines(block)
        # Code of other frameworks, shown for comparison, says so first; so
        # does a fragment of a manifest.
        if run and (run[0].startswith("// Before:") or run[0] == "// Package.swift"):
            continue
        if run and not any(contains(t, run) for t in tested):
            missing.append(f"{document}: a snippet is not in the tests:\n  " + "\n  ".join(run[:3]))
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
