#include "query/trace_batch.h"

#include <algorithm>
#include <thread>

namespace shallot {

std::vector<TraceResult> traceBatch(const BspTree& tree, const std::vector<TraceRequest>& requests, int threads) {
    std::vector<TraceResult> results(requests.size());
    auto run = [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i)
            results[i] = traceSegment(tree, requests[i].pose, requests[i].from, requests[i].to);
    };
    // At least half a parallel batch per thread, so a thread's start-up is worth it.
    const size_t workers = std::min(size_t(std::max(1, threads)), requests.size() / (kParallelTraceBatch / 2));
    if (requests.size() < kParallelTraceBatch || workers <= 1) {
        run(0, requests.size());
        return results;
    }
    std::vector<std::thread> pool;
    const size_t chunk = (requests.size() + workers - 1) / workers;
    for (size_t w = 1; w < workers; ++w)
        pool.emplace_back(run, std::min(requests.size(), w * chunk), std::min(requests.size(), (w + 1) * chunk));
    run(0, std::min(requests.size(), chunk)); // the caller's thread takes the first chunk
    for (std::thread& t : pool) t.join();
    return results;
}

} // namespace shallot
