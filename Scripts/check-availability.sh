#!/usr/bin/env bash
# Copyright (c) 2026 the swift-multicast authors.
# Licensed under the Apache License, Version 2.0; see LICENSE.
# Type-checks the library for the oldest Apple platforms it supports, macOS
# 10.15 and iOS 13, here on Linux, so that no newer API slips in: `Atomic`,
# `Mutex` and casts of noncopyable generics need macOS 15 and iOS 18, for
# instance.
#
# It builds, once per platform, a stand-in SDK in the build folder from this
# Linux toolchain's own standard library interfaces, which carry the Apple
# availability of every standard library, concurrency and Observation API,
# plus the few Darwin lock functions the library calls. The compiler then
# enforces the deployment target. Fails on any error or warning. (iOS is
# checked as its x86-64 simulator, the architecture of these interfaces; an
# API's iOS availability is the same on every architecture.)
#
# With Observation in the stand-in, `canImport(Observation)` holds, so the
# check proves that the library's Observation code (ObservableValue's
# registrar and its `Observable` conformance) compiles for macOS 10.15 and
# iOS 13 only behind `#available` and `@available`. The stand-in is rebuilt
# when its list of modules changes: one built before Observation was added
# would make that part of the check pass without checking anything.
#
# tvOS, watchOS and visionOS are not checked.
#
#   Scripts/check-availability.sh              # macOS 10.15, then iOS 13
#   Scripts/check-availability.sh macos 10.14  # one platform, another target
#   Scripts/check-availability.sh ios 12.0
set -euo pipefail
cd "$(dirname "$0")/.."

swift_lib=$(dirname "$(dirname "$(readlink -f "$(command -v swift-frontend)")")")/lib/swift
modules="Swift _Concurrency Synchronization Observation"

# The library's C target, as a module the type-check can import.
atomics="$(pwd)/.build/apple-sdk-stand-in-atomics"
mkdir -p "$atomics"
cat > "$atomics/module.modulemap" <<MAP
module _MulticastAtomics { header "$(pwd)/Sources/_MulticastAtomics/include/_MulticastAtomics.h" export * }
MAP

# check OS VERSION: builds the stand-in SDK for OS (macos or ios) if needed,
# then type-checks Sources/Multicast for VERSION of it.
check() {
  local os=$1 version=$2 triple suffix interface_floor
  case "$os" in
    macos) triple=x86_64-apple-macos suffix="" interface_floor=10.13 ;;
    ios) triple=x86_64-apple-ios suffix=-simulator interface_floor=12.0 ;;
    *) echo "unknown platform $os: macos or ios" >&2; exit 2 ;;
  esac
  local sdk="$(pwd)/.build/apple-sdk-stand-in-$os"
  if [ "$(cat "$sdk/.done" 2>/dev/null)" != "$modules" ]; then
    rm -rf "$sdk"
    mkdir -p "$sdk/usr/lib/swift" "$sdk/usr/include/darwin" "$sdk/interfaces"
    local module
    for module in $modules; do
      mkdir -p "$sdk/usr/lib/swift/$module.swiftmodule"
      # Retarget the Linux interface at the platform; drop what only Linux has.
      sed -E "s/-target x86_64-unknown-linux-gnu/-target $triple$interface_floor$suffix/g; s/@backDeployed\(before: [^)]*\)//g; s/^import Glibc$//; s/_swift_stdlib_gettid\(\)/0/g; s/let selfId = 0$/let selfId: UInt32 = 0/" \
        "$swift_lib/linux/$module.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface" \
        > "$sdk/interfaces/$module.swiftinterface"
      local extra=()
      [ "$module" = Swift ] || extra=(-disable-availability-checking)
      swift-frontend -compile-module-from-interface -module-name "$module" -parse-stdlib "${extra[@]}" \
        -target "$triple$interface_floor$suffix" -sdk "$sdk" -I "$swift_lib/shims" -I "$sdk/usr/lib/swift" \
        -disable-objc-interop -o "$sdk/usr/lib/swift/$module.swiftmodule/$triple$suffix.swiftmodule" \
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
void os_unfair_lock_lock(os_unfair_lock_t lock) __attribute__((availability(macos,introduced=10.12))) __attribute__((availability(ios,introduced=10.0)));
void os_unfair_lock_unlock(os_unfair_lock_t lock) __attribute__((availability(macos,introduced=10.12))) __attribute__((availability(ios,introduced=10.0)));
HEADER
    echo "$modules" > "$sdk/.done"
  fi

  local target="$triple$version$suffix"
  echo "Type-checking Sources/Multicast for $target"
  swift-frontend -typecheck -module-name Multicast -target "$target" \
    -sdk "$sdk" -I "$sdk/usr/lib/swift" -I "$sdk/usr/include/darwin" -I "$swift_lib/shims" \
    -I "$atomics" -disable-objc-interop -swift-version 6 -warnings-as-errors \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
    -enable-upcoming-feature MemberImportVisibility -enable-upcoming-feature InferIsolatedConformances \
    -enable-upcoming-feature NonisolatedNonsendingByDefault \
    -disable-implicit-string-processing-module-import $(find Sources/Multicast -name '*.swift' | sort)
  echo "Sources/Multicast type-checks for $target: no API newer than the deployment target."
}

if [ $# -eq 0 ]; then
  check macos 10.15
  check ios 13.0
else
  check "$1" "${2:-$([ "$1" = ios ] && echo 13.0 || echo 10.15)}"
fi
