#pragma once
#include "query/trace.h"

#include <vector>

namespace shallot {

struct TraceRequest {
    int pose = 0;
    Vec3 from = Vec3::Zero();
    Vec3 to = Vec3::Zero();
};

// Batches at least this long are split over threads.
inline constexpr size_t kParallelTraceBatch = 1024;

// traceSegment for each request, in order. With threads > 1 and a batch of at least
// kParallelTraceBatch requests, contiguous chunks run on that many std::threads (fewer
// when the batch is short; the caller's thread runs one); otherwise all run on the
// caller's thread. The results are the same as one by one.
std::vector<TraceResult> traceBatch(const BspTree& tree, const std::vector<TraceRequest>& requests, int threads);

} // namespace shallot
