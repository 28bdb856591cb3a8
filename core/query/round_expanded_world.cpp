#include "query/round_expanded_world.h"

#include "compile/parallel_for.h"
#include "world/brush_geometry.h"

#include <cstring>
#include <functional>
#include <unordered_map>

namespace shallot {

namespace {

// A brush's planes and contents hashed, to find its surface among the last world's.
size_t brushKey(const Brush& b) {
    size_t h = std::hash<uint64_t>{}(uint64_t(b.contents)) ^ (b.sides.size() * 0x9E3779B97F4A7C15ull);
    auto mix = [&](double v) {
        uint64_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        h = (h ^ std::hash<uint64_t>{}(bits)) * 0x100000001B3ull;
    };
    for (const BrushSide& s : b.sides) {
        for (int k = 0; k < 3; ++k) mix(s.plane.normal[k]);
        mix(s.plane.dist);
    }
    return h;
}

} // namespace

void RoundExpandedWorld::update(const World& world, const Pose& pose, int threads, const CancelToken* cancel) {
    const bool samePose = pose_.shape == pose.shape && pose_.name == pose.name && pose_.blockingSet() == pose.blockingSet();
    std::unordered_multimap<size_t, size_t> old;
    if (samePose)
        for (size_t i = 0; i < entries_.size(); ++i) old.emplace(entries_[i].key, i);
    auto same = [](const Entry& e, const Brush& b) {
        if (e.contents != b.contents || e.excludedPoses != b.excludedPoses || e.planes.size() != b.sides.size()) return false;
        for (size_t s = 0; s < e.planes.size(); ++s)
            if (e.planes[s].normal != b.sides[s].plane.normal || e.planes[s].dist != b.sides[s].plane.dist) return false;
        return true;
    };
    std::vector<Entry> next(world.brushes.size());
    std::vector<size_t> todo;
    for (size_t b = 0; b < world.brushes.size(); ++b) {
        const Brush& brush = world.brushes[b];
        Entry& e = next[b];
        e.key = brushKey(brush);
        const auto [first, last] = old.equal_range(e.key);
        for (auto it = first; it != last && !e.surface; ++it)
            if (same(entries_[it->second], brush)) e = entries_[it->second];
        if (e.surface) continue;
        for (const BrushSide& s : brush.sides) e.planes.push_back(s.plane);
        e.contents = brush.contents;
        e.excludedPoses = brush.excludedPoses;
        todo.push_back(b);
    }
    parallelFor(todo.size(), threads, [&](size_t k) {
        if (cancel && cancel->cancelled.load(std::memory_order_relaxed)) return;
        const size_t b = todo[k];
        auto surface = std::make_shared<std::vector<RoundSurfaceVertex>>();
        if (blocks(world.brushes[b], pose))
            if (const BrushGeometryResult g = buildBrushGeometry(world.brushes[b], world.bounds); g.geometry)
                appendRoundExpandedSurface(*g.geometry, pose.shape, kRoundSurfaceStep, *surface);
        for (const RoundSurfaceVertex& v : *surface) next[b].bounds.add(v.position);
        next[b].surface = std::move(surface);
    });
    throwIfCancelled(cancel);
    pose_ = pose;
    entries_ = std::move(next);
    tessellated_ = todo.size();
}

std::vector<RoundSurfacePiece> RoundExpandedWorld::pieces() const {
    std::vector<RoundSurfacePiece> out;
    out.reserve(entries_.size());
    for (const Entry& e : entries_) out.push_back(e.surface);
    return out;
}

std::vector<Aabb> RoundExpandedWorld::bounds() const {
    std::vector<Aabb> out;
    out.reserve(entries_.size());
    for (const Entry& e : entries_) out.push_back(e.bounds);
    return out;
}

} // namespace shallot
