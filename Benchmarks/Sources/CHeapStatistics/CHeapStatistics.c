// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

#include "CHeapStatistics.h"

#include <stdlib.h>  // defines __GLIBC__ where glibc is the C library

#if defined(__GLIBC__)
#include <malloc.h>

long long heap_bytes_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  // uordblks counts the arenas; hblkhd the large blocks mapped on their own.
  return (long long)(info.uordblks + info.hblkhd);
}
#else
long long heap_bytes_in_use(void) { return -1; }
#endif
