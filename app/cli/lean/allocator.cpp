#include "allocator.h"

#ifdef SHALLOT_TCMALLOC
#include <gperftools/malloc_extension_c.h>
#endif

namespace shallot::cli {

void returnFreedMemoryAtOnce() {
#ifdef SHALLOT_TCMALLOC
    MallocExtension_SetNumericProperty("tcmalloc.aggressive_memory_decommit", 1);
#endif
}

} // namespace shallot::cli
