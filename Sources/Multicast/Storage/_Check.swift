// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Traps unless `condition` holds, in `MULTICAST_INTERNAL_CHECKS` builds; call it unconditionally.
@inline(__always)
func _check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  #if MULTICAST_INTERNAL_CHECKS
  precondition(condition(), message())
  #endif
}
