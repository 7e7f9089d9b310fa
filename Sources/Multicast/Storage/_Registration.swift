// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// A registration that is its own handle, such as an event subscription.
@usableFromInline
struct _Registration: Sendable {
  let sequence: UInt64
}
