#!/usr/bin/env bash
# Copyright (c) 2026 the swift-multicast authors.
# Licensed under the Apache License, Version 2.0; see LICENSE.
# Type-checks the library for the oldest Apple platform it supports, here on
# Linux, so that no API newer than macOS 10.15 (iOS 13) slips in: `Atomic`,
# `Mutex` and casts of noncopyable generics need macOS 15, for instance.
#
# It builds, once, a stand-in macOS SDK in the build folder from this Linux
# toolchain's own standard library interfaces, which carry the Apple
# availability of every standard library, concurrency and Observation API,
# plus the few Darwin lock functions the library calls. The compiler then
# enforces the deployment target. Fails on any error or warning.
#
# With Observation in the stand-in, `canImport(Observation)` holds, so the
# check proves that the library's Observation code (ObservableValue's
# registrar and its `Observable` conformance) compiles for macOS 10.15 only
# behind `#available` and `@available`. The stand-in is rebuilt when its list
# of modules changes: one built before Observation was added would make that
# part of the check pass without checking anything.
#
#   Scripts/check-availability.sh            # macOS 10.15
#   Scripts/check-availability.sh 10.14      # another deployment target
set -euo pipefail
cd "$(dirname "$0")/.."

target="x86_64-apple-macos${1:-10.15}"
sdk="$(pwd)/.build/apple-sdk-stand-in"
swift_lib=$(dirname "$(dirname "$(readlink -f "$(command -v swift-frontend)")")")/lib/swift

modules="Swift _Concurrency Synchronization Observation"
if [ "$(cat "$sdk/.done" 2>/dev/null)" != "$modules" ]; then
  rm -rf "$sdk"
  mkdir -p "$sdk/usr/lib/swift" "$sdk/usr/include/darwin" "$sdk/interfaces"
  for module in $modules; do
    mkdir -p "$sdk/usr/lib/swift/$module.swiftmodule"
    # Retarget the Linux interface at macOS; drop what only Linux has.
    sed -E "s/-target x86_64-unknown-linux-gnu/-target x86_64-apple-macos10.13/g; s/@backDeployed\(before: [^)]*\)//g; s/^import Glibc$//; s/_swift_stdlib_gettid\(\)/0/g; s/let selfId = 0$/let selfId: UInt32 = 0/" \
      "$swift_lib/linux/$module.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface" \
      > "$sdk/interfaces/$module.swiftinterface"
    extra=()
    [ "$module" = Swift ] || extra=(-disable-availability-checking)
    swift-frontend -compile-module-from-interface -module-name "$module" -parse-stdlib "${extra[@]}" \
      -target x86_64-apple-macos10.13 -sdk "$sdk" -I "$swift_lib/shims" -I "$sdk/usr/lib/swift" \
      -disable-objc-interop -o "$sdk/usr/lib/swift/$module.swiftmodule/x86_64-apple-macos.swiftmodule" \
      "$sdk/interfaces/$module.swiftinterface" >/dev/null 2>"$sdk/$module.log" \
      || { cat "$sdk/$module.log" >&2; exit 1; }
  done
  # Darwin: the little of it that the lock needs, with Apple's availability.
  cat > "$sdk/usr/include/darwin/module.modulemap" <<'MAP'
module Darwin [system] { header "darwin.h" export * }
MAP
  cat > "$sdk/usr/include/darwin/darwin.h" <<'HEADER'
#include <stdint.h>
#include <stddef.h>
typedef struct os_unfair_lock_s { uint32_t _os_unfair_lock_opaque; } os_unfair_lock, *os_unfair_lock_t;
void os_unfair_lock_lock(os_unfair_lock_t lock) __attribute__((availability(macos,introduced=10.12)));
void os_unfair_lock_unlock(os_unfair_lock_t lock) __attribute__((availability(macos,introduced=10.12)));
HEADER
  echo "$modules" > "$sdk/.done"
fi

# The library's C target, as a module the type-check can import.
atomics="$(pwd)/.build/apple-sdk-stand-in-atomics"
mkdir -p "$atomics"
cat > "$atomics/module.modulemap" <<MAP
module _MulticastAtomics { header "$(pwd)/Sources/_MulticastAtomics/include/_MulticastAtomics.h" export * }
MAP

echo "Type-checking Sources/Multicast for $target"
swift-frontend -typecheck -module-name Multicast -target "$target" \
  -sdk "$sdk" -I "$sdk/usr/lib/swift" -I "$sdk/usr/include/darwin" -I "$swift_lib/shims" \
  -I "$atomics" -disable-objc-interop -swift-version 6 -warnings-as-errors \
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
  -enable-upcoming-feature MemberImportVisibility -enable-upcoming-feature InferIsolatedConformances \
  -enable-upcoming-feature NonisolatedNonsendingByDefault \
  -disable-implicit-string-processing-module-import $(find Sources/Multicast -name '*.swift' | sort)
echo "Sources/Multicast type-checks for $target: no API newer than the deployment target."
