#include "bench_workloads.h"

#include "incremental/incremental_compiler.h"
#include "world/brush_geometry.h"

#include <algorithm>
#include <chrono>
#include <random>

namespace shallot::cli {

namespace {

// Gap between copies of a map placed side by side, in world units.
constexpr double kSideBySideGap = 256.0;
// Growth of each synthetic pose over the previous one: half-width, then height.
constexpr double kPoseGrowthAcross = 8.0;
constexpr double kPoseGrowthUp = 16.0;
// Seed of the edits, so that every run and every build moves the same brushes.
constexpr uint64_t kEditSeed = 7;
constexpr double kMaxEditAcross = 32.0;
constexpr double kMaxEditUp = 16.0;

Brush translated(Brush b, const Vec3& t) {
    for (BrushSide& s : b.sides) {
        s.plane.dist += s.plane.normal.dot(t);
        for (Vec3& p : s.points) p += t;
    }
    return b;
}

} // namespace

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

std::vector<Pose> syntheticPoses(int count) {
    std::vector<Pose> poses = quakePoses();
    poses.resize(std::min<size_t>(poses.size(), size_t(std::max(0, count))));
    while (poses.size() < size_t(count)) {
        Pose p = poses.back();
        p.name = "box" + std::to_string(poses.size());
        p.mins -= Vec3(kPoseGrowthAcross, kPoseGrowthAcross, 0);
        p.maxs += Vec3(kPoseGrowthAcross, kPoseGrowthAcross, kPoseGrowthUp);
        poses.push_back(p);
    }
    return poses;
}

World copiedWorld(const World& world, double copies) {
    std::vector<std::pair<double, size_t>> byX; // (centre x, brush) of the valid brushes
    Aabb box;
    for (size_t i = 0; i < world.brushes.size(); ++i) {
        if (const auto g = buildBrushGeometry(world.brushes[i], world.bounds).geometry) {
            box.add(g->bounds);
            byX.emplace_back(0.5 * (g->bounds.mins.x() + g->bounds.maxs.x()), i);
        }
    }
    World out = world;
    out.brushes.clear();
    if (copies < 1.0) {
        std::sort(byX.begin(), byX.end());
        byX.resize(size_t(double(byX.size()) * copies));
        std::sort(byX.begin(), byX.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        for (const auto& [x, i] : byX) out.brushes.push_back(world.brushes[i]);
        return out;
    }
    const double step = box.empty() ? 0.0 : box.maxs.x() - box.mins.x() + kSideBySideGap;
    for (int c = 0; c < int(copies); ++c)
        for (const Brush& b : world.brushes) out.brushes.push_back(translated(b, Vec3(step * c, 0, 0)));
    return out;
}

double EditLatency::medianMs() const { return median(ms); }
double EditLatency::max() const { return ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()); }

EditLatency incrementalEditLatency(const World& world, const CompileOptions& options, int edits) {
    EditLatency out;
    if (world.brushes.empty()) return out;
    World w = world;
    IncrementalCompiler compiler;
    std::mt19937_64 rng(kEditSeed);
    auto offset = [&](double range) { return std::round(std::uniform_real_distribution<double>(-range, range)(rng)); };
    // Like the editor, the previous result is held (shown) while the next one is compiled.
    std::shared_ptr<const CompileResult> shown = compiler.compile(w, options);
    for (int e = 0; e < edits; ++e) {
        Brush& b = w.brushes[size_t(rng() % w.brushes.size())];
        b = translated(b, Vec3(offset(kMaxEditAcross), offset(kMaxEditAcross), offset(kMaxEditUp)));
        const auto start = std::chrono::steady_clock::now();
        std::shared_ptr<const CompileResult> r = compiler.compile(w, options);
        out.ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        out.incremental += r->stats.incremental;
        shown = std::move(r);
    }
    return out;
}

} // namespace shallot::cli
