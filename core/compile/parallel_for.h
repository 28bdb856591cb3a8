#pragma once
#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace shallot {

// Runs job(i) for i in [0, count) on up to `threads` threads, taking indices in order;
// rethrows the first error once every job has finished.
template <class Job>
void parallelFor(size_t count, int threads, const Job& job) {
    const size_t workers = std::min<size_t>(count, size_t(std::max(1, threads)));
    if (workers <= 1) {
        for (size_t i = 0; i < count; ++i) job(i);
        return;
    }
    std::atomic<size_t> next{0};
    std::exception_ptr error;
    std::mutex errorMutex;
    std::vector<std::thread> pool;
    for (size_t w = 0; w < workers; ++w) {
        pool.emplace_back([&] {
            for (size_t i; (i = next.fetch_add(1)) < count;) {
                try {
                    job(i);
                } catch (...) {
                    std::lock_guard lock(errorMutex);
                    if (!error) error = std::current_exception();
                }
            }
        });
    }
    for (std::thread& t : pool) t.join();
    if (error) std::rethrow_exception(error);
}

} // namespace shallot
