// Everything is in the header, as static inline functions.
#include "_MulticastAtomics.h"
