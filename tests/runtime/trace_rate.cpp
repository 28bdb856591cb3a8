// The C++ side of tests/python/bench_trace.py: traces per second through the runtime on
// the segments the benchmark wrote, best of RUNS, one thread.
//   trace_rate LEVEL.obsp SEGMENTS.f64 POSE RUNS   (SEGMENTS: n starts then n ends, x y z)
// Prints {"batch": traces/s through Tree::traceBatch, "one_by_one": through Tree::trace}.
#include "shallot/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

int main(int argc, char** argv) {
    using namespace shallot::runtime;
    if (argc != 5) return std::fprintf(stderr, "usage: trace_rate LEVEL.obsp SEGMENTS.f64 POSE RUNS\n"), 2;
    const Result<Tree> tree = Tree::loadFile(argv[1]);
    if (!tree) return std::fprintf(stderr, "%s\n", tree.error.c_str()), 1;
    std::ifstream in(argv[2], std::ios::binary | std::ios::ate);
    std::vector<double> values(size_t(in.tellg()) / sizeof(double));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(values.data()), std::streamsize(values.size() * sizeof(double)));
    const size_t n = values.size() / 6;
    const double* from = values.data();
    const double* to = values.data() + 3 * n;
    const int pose = tree.value.poseIndex(argv[3]);
    const int runs = std::max(1, std::atoi(argv[4]));
    std::vector<Hit> hits(n);
    auto rate = [&](auto&& body) {
        double best = 1e300;
        for (int r = 0; r < runs; ++r) {
            const auto start = std::chrono::steady_clock::now();
            if (!body()) std::exit(1);
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        return double(n) / best;
    };
    const double batch = rate([&] { return tree.value.traceBatch(pose, from, to, n, hits.data(), 1).ok(); });
    const double single = rate([&] {
        for (size_t i = 0; i < n; ++i) {
            const Result<Hit> h = tree.value.trace(pose, {from[3 * i], from[3 * i + 1], from[3 * i + 2]},
                                                   {to[3 * i], to[3 * i + 1], to[3 * i + 2]});
            if (!h) return false;
            hits[i] = h.value;
        }
        return true;
    });
    std::printf("{\"batch\": %.0f, \"one_by_one\": %.0f}\n", batch, single);
    return 0;
}
