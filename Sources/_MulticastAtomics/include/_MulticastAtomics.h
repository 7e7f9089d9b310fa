// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// The atomic operations the Multicast library needs, as C11 atomics.
//
// A broadcast reads each registration's stamp without the storage's lock
// while a removal on another thread may set a flag in it with the lock held,
// and it leaves a buffer by decrementing the buffer's reader count without
// the lock. The Synchronization module's `Atomic` would do, but it needs
// macOS 15 and iOS 18; C11 atomics work on every platform Swift supports, and
// these static inline functions compile to single instructions on x86-64 and
// ARM64, inlined into the Swift code that calls them.

#ifndef MULTICAST_ATOMICS_H
#define MULTICAST_ATOMICS_H

#include <stdatomic.h>
#include <stdint.h>

/// Loads a word with acquire ordering.
///
/// `word` must be 8-byte aligned and, once other threads can see it, written
/// only through these functions.
static inline uint64_t _multicast_load_acquire(uint64_t *_Nonnull word) {
  return atomic_load_explicit((_Atomic(uint64_t) *)word, memory_order_acquire);
}

/// Stores a word with release ordering.
static inline void _multicast_store_release(uint64_t *_Nonnull word, uint64_t value) {
  atomic_store_explicit((_Atomic(uint64_t) *)word, value, memory_order_release);
}

/// Adds `value` to a word; returns the word before.
static inline uint64_t _multicast_fetch_add(uint64_t *_Nonnull word, uint64_t value) {
  return atomic_fetch_add_explicit((_Atomic(uint64_t) *)word, value, memory_order_acq_rel);
}

/// Subtracts `value` from a word; returns the word before.
///
/// Release ordering publishes the caller's reads of what the word guards
/// before the word changes; acquire ordering lets the caller see the writes
/// made before the word's earlier changes.
static inline uint64_t _multicast_fetch_sub(uint64_t *_Nonnull word, uint64_t value) {
  return atomic_fetch_sub_explicit((_Atomic(uint64_t) *)word, value, memory_order_acq_rel);
}

/// Replaces a word that is `expected` with `desired`; returns whether it was
/// `expected`. Ordered as ``_multicast_fetch_sub`` is, when it succeeds.
static inline _Bool _multicast_compare_exchange(
    uint64_t *_Nonnull word, uint64_t expected, uint64_t desired) {
  return atomic_compare_exchange_strong_explicit(
      (_Atomic(uint64_t) *)word, &expected, desired, memory_order_acq_rel,
      memory_order_relaxed);
}

/// Sets the bits of `value` in a word; returns the word before.
static inline uint64_t _multicast_fetch_or(uint64_t *_Nonnull word, uint64_t value) {
  return atomic_fetch_or_explicit((_Atomic(uint64_t) *)word, value, memory_order_acq_rel);
}

/// Loads a word with no ordering: for a word read again under a version
/// check (see ``_multicast_fence_acquire``), or whose value orders nothing.
static inline uint64_t _multicast_load_relaxed(uint64_t *_Nonnull word) {
  return atomic_load_explicit((_Atomic(uint64_t) *)word, memory_order_relaxed);
}

/// Stores a word with no ordering.
static inline void _multicast_store_relaxed(uint64_t *_Nonnull word, uint64_t value) {
  atomic_store_explicit((_Atomic(uint64_t) *)word, value, memory_order_relaxed);
}

/// Loads a word in the single total order of sequentially consistent
/// operations.
static inline uint64_t _multicast_load_seq_cst(uint64_t *_Nonnull word) {
  return atomic_load_explicit((_Atomic(uint64_t) *)word, memory_order_seq_cst);
}

/// Stores a word in the single total order of sequentially consistent
/// operations.
static inline void _multicast_store_seq_cst(uint64_t *_Nonnull word, uint64_t value) {
  atomic_store_explicit((_Atomic(uint64_t) *)word, value, memory_order_seq_cst);
}

/// Adds `value` to a word in the single total order of sequentially
/// consistent operations; returns the word before.
static inline uint64_t _multicast_fetch_add_seq_cst(uint64_t *_Nonnull word, uint64_t value) {
  return atomic_fetch_add_explicit((_Atomic(uint64_t) *)word, value, memory_order_seq_cst);
}

/// Subtracts `value` from a word in the single total order of sequentially
/// consistent operations; returns the word before.
static inline uint64_t _multicast_fetch_sub_seq_cst(uint64_t *_Nonnull word, uint64_t value) {
  return atomic_fetch_sub_explicit((_Atomic(uint64_t) *)word, value, memory_order_seq_cst);
}

/// A fence that keeps the caller's earlier loads before its later loads and
/// stores: what a reader of data under a version word needs between reading
/// the data and reading the version again.
static inline void _multicast_fence_acquire(void) {
  atomic_thread_fence(memory_order_acquire);
}

/// A fence that keeps the caller's earlier loads and stores before its
/// later stores: what a writer needs between marking a version word busy and
/// changing the data under it.
static inline void _multicast_fence_release(void) {
  atomic_thread_fence(memory_order_release);
}

/// A sequentially consistent fence: a writer's earlier store and its later
/// loads take their places on either side of it in the total order.
static inline void _multicast_fence_seq_cst(void) {
  atomic_thread_fence(memory_order_seq_cst);
}

/// A small number for the calling thread, fixed for its life: 0 for the first
/// thread that asks, 1 for the next, and so on. Threads that start one after
/// another get numbers in sequence, so that any few of them spread over a
/// few slots.
uint32_t _multicast_thread_number(void);

/// Whether the calling thread is the process's main thread: the thread the
/// main actor runs on.
///
/// Code that the compiler sees as isolated to no actor may still run there;
/// then it may call main-actor handlers at once. Where the platform cannot
/// tell, this returns false, and such calls are queued for the main actor
/// instead, which is always safe.
_Bool _multicast_is_main_thread(void);

/// The identity of the serial executor the caller runs on, as the Swift
/// concurrency runtime tracks it, or null when it tracks none.
const void *_Nullable _multicast_current_executor(void);

/// A monotonic clock's reading, in nanoseconds from an arbitrary origin.
uint64_t _multicast_monotonic_nanoseconds(void);

#endif
