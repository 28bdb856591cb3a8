#pragma once

namespace shallot::cli {

// Has tcmalloc (when linked) give freed pages back to the system at once instead of keeping
// them for reuse: that kept shallot-cli compile's peak on id_e1m1 at 63 MB instead of 48
// (docs/performance.md, "Peak memory"), for no measurable time.
void returnFreedMemoryAtOnce();

} // namespace shallot::cli
