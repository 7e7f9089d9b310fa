#!/usr/bin/env bash
# Copyright (c) 2026 the swift-multicast authors.
# Licensed under the Apache License, Version 2.0; see LICENSE.
# Type-checks the code of the Concurrency article's "Common errors" against
# the library, in Swift 6 mode: each Tests/CommonErrors/*-fails.swift must
# fail with the diagnostic its first line quotes ("// error: ..."), word for
# word; each *-warns.swift must compile with the warning its first line
# quotes ("// warning: ..."); every other file there (the fixes) must compile
# with no warning.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --target Multicast >&2
bin="$(swift build --show-bin-path)"
flags=(-swift-version 6 -typecheck -I "$bin/Modules"
  -Xcc "-fmodule-map-file=$bin/_MulticastAtomics.build/module.modulemap"
  -I Sources/_MulticastAtomics/include)

failed=0
for file in Tests/CommonErrors/*.swift; do
  if output="$(swiftc "${flags[@]}" -warnings-as-errors "$file" 2>&1)"; then
    compiled=true
  else
    compiled=false
  fi
  case "$file" in
    *-warns.swift)
      expected="$(head -1 "$file" | sed -n 's|^// warning: ||p')"
      output="$(swiftc "${flags[@]}" "$file" 2>&1)" || {
        echo "$file: does not compile, but should only warn: $expected"
        echo "$output"
        failed=1
        continue
      }
      if grep -qF "warning: $expected" <<<"$output"; then
        echo "$file: warns as documented"
      else
        echo "$file: did not warn: $expected"
        failed=1
      fi
      ;;
    *-fails.swift)
      expected="$(head -1 "$file" | sed -n 's|^// error: ||p')"
      if $compiled; then
        echo "$file: compiled, but should fail with: $expected"
        failed=1
      elif ! grep -qF "error: $expected" <<<"$output"; then
        echo "$file: did not fail with: $expected"
        echo "$output" | grep -E "error:" | grep -v '^ *|' || true
        failed=1
      else
        echo "$file: fails as documented"
      fi
      ;;
    *)
      if $compiled; then
        echo "$file: compiles"
      else
        echo "$file: does not compile:"
        echo "$output"
        failed=1
      fi
      ;;
  esac
done
exit $failed
