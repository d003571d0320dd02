// The target's one function is inline in include/prefetch.h; SwiftPM needs a source file to build the module.
#include "prefetch.h"
