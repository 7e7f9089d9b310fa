// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

// Everything is in the header, as static inline functions.
#include "_MulticastAtomics.h"
