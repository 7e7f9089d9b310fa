// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// The two atomic operations the Multicast library needs, as C11 atomics.
//
// A broadcast reads each registration's state word without the storage's
// lock while a removal on another thread may set a flag in it with the lock
// held. The Synchronization module's `Atomic` would do, but it needs macOS 15
// and iOS 18; C11 atomics work on every platform Swift supports, and these
// static inline functions compile to a plain load and store on x86-64 and
// ARM64, inlined into the Swift code that calls them.

#ifndef MULTICAST_ATOMICS_H
#define MULTICAST_ATOMICS_H

#include <stdatomic.h>
#include <stdint.h>

/// Loads a state word with acquire ordering.
///
/// `word` must be 8-byte aligned and written only through these functions
/// once other threads can see it.
static inline uint64_t _multicast_load_acquire(uint64_t *_Nonnull word) {
  return atomic_load_explicit((_Atomic(uint64_t) *)word, memory_order_acquire);
}

/// Stores a state word with release ordering.
static inline void _multicast_store_release(uint64_t *_Nonnull word, uint64_t value) {
  atomic_store_explicit((_Atomic(uint64_t) *)word, value, memory_order_release);
}

#endif
