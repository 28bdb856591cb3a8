#pragma once
// Repetition counts of the heaviest property tests, scaled down for the sanitizer runs
// (scripts/sanitize.sh sets SHALLOT_TEST_SCALE=0.25): there every test runs 5-20 times
// slower, and the Release run of the same tests (the README's test command) does every
// repetition. Unset, or not a number in (0, 1]: 1.
#include <algorithm>
#include <cstdlib>
#include <vector>

namespace shallot::test {

inline double testScale() {
    static const double scale = [] {
        const char* text = std::getenv("SHALLOT_TEST_SCALE");
        const double v = text ? std::atof(text) : 1.0;
        return v > 0.0 && v <= 1.0 ? v : 1.0;
    }();
    return scale;
}

// `count` repetitions scaled, at least one.
inline int scaledCount(int count) { return std::max(1, int(count * testScale() + 0.5)); }

// Of `items` (levels, cases), every k-th kept, k = 1 / scale rounded: a spread of them.
template <class T>
void keepScaledShare(std::vector<T>& items) {
    const size_t k = size_t(1.0 / testScale() + 0.5);
    if (k <= 1) return;
    std::vector<T> kept;
    for (size_t i = 0; i < items.size(); i += k) kept.push_back(std::move(items[i]));
    items = std::move(kept);
}

} // namespace shallot::test
