#include "world/number_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>

namespace shallot {

namespace {
// Integral values below this magnitude are written as integer digits (all are exact).
constexpr double kMaxIntegerDigits = 9007199254740992.0; // 2^53
} // namespace

void appendNumber(std::string& out, double v) {
    if (v == 0.0) v = 0.0; // never "-0"
    char buffer[32];       // the longest shortest-round-trip double is 24 characters
    const std::to_chars_result r = std::trunc(v) == v && std::abs(v) < kMaxIntegerDigits
                                       ? std::to_chars(buffer, buffer + sizeof buffer, int64_t(v))
                                       : std::to_chars(buffer, buffer + sizeof buffer, v);
    out.append(buffer, r.ptr);
}

std::string numberText(double v) {
    std::string out;
    appendNumber(out, v);
    return out;
}

} // namespace shallot
