// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

#ifndef C_HEAP_STATISTICS_H
#define C_HEAP_STATISTICS_H

#include <stddef.h>

/// Bytes of heap in use as the C allocator counts them, or -1 where it
/// cannot say (only glibc's mallinfo2 is read).
long long heap_bytes_in_use(void);

#endif
