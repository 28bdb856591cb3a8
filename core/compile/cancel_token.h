#pragma once
#include <atomic>
#include <stdexcept>

namespace shallot {

// Cooperative cancellation: the editor sets it when a newer edit supersedes a compile;
// the compiler checks it in its loops and throws CompileCancelled.
struct CancelToken {
    std::atomic<bool> cancelled{false};
};

struct CompileCancelled : std::runtime_error {
    CompileCancelled() : std::runtime_error("compile cancelled") {}
};

inline void throwIfCancelled(const CancelToken* token) {
    if (token && token->cancelled.load(std::memory_order_relaxed)) throw CompileCancelled();
}

} // namespace shallot
