// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Traps with `message` unless `condition` holds, in builds checked with
/// `MULTICAST_INTERNAL_CHECKS`; compiled out otherwise.
///
/// The one switch of the layers' invariant checks: call sites call it
/// unconditionally, as they call the `checkInvariants()` methods, which are
/// empty without the flag.
@inline(__always)
func _check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  #if MULTICAST_INTERNAL_CHECKS
  precondition(condition(), message())
  #endif
}
