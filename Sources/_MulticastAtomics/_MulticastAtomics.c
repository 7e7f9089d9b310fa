// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// The atomics are in the header, as static inline functions; the thread
// queries are here, where each platform's headers stay out of the header.

#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif

#include "_MulticastAtomics.h"

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#elif defined(__wasi__)
// No threads to tell apart.
#else
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__) && !defined(__ANDROID__)
#include <sys/syscall.h>
#endif
#if defined(__FreeBSD__) || defined(__OpenBSD__)
#include <pthread_np.h>
#endif
#endif

_Bool _multicast_is_main_thread(void) {
#if defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__)
  return pthread_main_np() == 1;
#elif defined(__ANDROID__)
  return gettid() == getpid();
#elif defined(__linux__)
  // The main thread's thread ID is the process ID. Asking is a system call,
  // so each thread asks once.
  static _Thread_local int isMain = -1;
  if (isMain < 0) isMain = syscall(SYS_gettid) == getpid();
  return isMain;
#else
  // Windows, WASI and others: no cheap way to tell, so never claim it.
  return 0;
#endif
}

uint32_t _multicast_thread_number(void) {
  // The number plus one, so that zero means "not yet numbered".
  static _Thread_local uint32_t numberPlusOne = 0;
  static _Atomic(uint32_t) next = 0;
  uint32_t number = numberPlusOne;
  if (number == 0) {
    number = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed) + 1;
    numberPlusOne = number;
  }
  return number - 1;
}

// The identity of the serial executor the current code runs on, as the
// concurrency runtime tracks it: `swift_task_getCurrentExecutor`, exported by
// every concurrency runtime since the first (it is what `#isolation`-less
// code hops back to), returns it in Swift's calling convention as two words,
// the identity and the implementation. Only the identity tells executors
// apart. It is null when no executor is tracked: on a thread that runs no
// task, or in a task on the global concurrent executor.
typedef struct {
  const void *_Nullable identity;
  uintptr_t implementation;
} _multicast_executor_ref;

extern __attribute__((swiftcall)) _multicast_executor_ref swift_task_getCurrentExecutor(void);

const void *_Nullable _multicast_current_executor(void) {
  return swift_task_getCurrentExecutor().identity;
}

uint64_t _multicast_monotonic_nanoseconds(void) {
#if defined(_WIN32)
  static LARGE_INTEGER frequency;
  LARGE_INTEGER counter;
  if (frequency.QuadPart == 0) QueryPerformanceFrequency(&frequency);
  QueryPerformanceCounter(&counter);
  return (uint64_t)((double)counter.QuadPart * 1e9 / (double)frequency.QuadPart);
#elif defined(__wasi__)
  return 0;
#else
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
#endif
}
