#pragma once
#include <chrono>

namespace shallot {

// Milliseconds between laps, for the phase timings of CompileStats.
class Stopwatch {
public:
    double lapMs() {
        const auto now = std::chrono::steady_clock::now();
        const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
        last_ = now;
        return ms;
    }

private:
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

} // namespace shallot
