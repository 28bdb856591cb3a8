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
    // Fixed notation, never an exponent (Quake's and other .map readers do not all take
    // one): the longest shortest-round-trip double in it, the smallest subnormal, is 327
    // characters ("-0." then 323 zeros and "5").
    char buffer[400];
    const std::to_chars_result r = std::trunc(v) == v && std::abs(v) < kMaxIntegerDigits
                                       ? std::to_chars(buffer, buffer + sizeof buffer, int64_t(v))
                                       : std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::fixed);
    out.append(buffer, r.ptr);
}

std::string numberText(double v) {
    std::string out;
    appendNumber(out, v);
    return out;
}

} // namespace shallot
