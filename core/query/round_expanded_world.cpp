#include "query/round_expanded_world.h"

#include "compile/parallel_for.h"
#include "query/round_shape_overlap.h"
#include "world/brush_geometry.h"

#include <cmath>
#include <cstring>
#include <algorithm>
#include <array>
#include <functional>
#include <limits>
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

bool overlap(const Aabb& a, const Aabb& b) {
    return !a.empty() && !b.empty() && (a.mins.array() <= b.maxs.array()).all() && (b.mins.array() <= a.maxs.array()).all();
}

// Whether the shape centred at `centre` (shape space) overlaps `brush` by more than `depth`:
// first a lower bound of its core's distance from the brush's face planes (most brushes
// near a corner are farther than that), then the exact distance.
bool deepInside(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& centre, double depth) {
    double lower = -std::numeric_limits<double>::infinity();
    for (const RoundFace& f : brush.faces)
        lower = std::max(lower, f.plane.signedDistance(centre) - frame.halfCore * std::abs(f.plane.normal.z()));
    if (lower >= frame.radius - depth) return false;
    return roundShapeClearance(frame, brush, centre) < -depth;
}

// Brush a's triangles less those whose corners all lie deeper than `depth` inside one of
// the other brushes (entries[b].round) whose triangles' box meets a's.
template <class Entry>
RoundSurfacePiece shownPart(const std::vector<Entry>& entries, size_t a, const RoundShapeFrame& frame, double depth) {
    const RoundSurfacePiece& whole = entries[a].surface;
    if (!whole || whole->empty()) return whole;
    std::vector<size_t> near;
    for (size_t b = 0; b < entries.size(); ++b)
        if (b != a && entries[b].round && overlap(entries[a].bounds, entries[b].bounds)) near.push_back(b);
    if (near.empty()) return whole;
    const std::vector<RoundSurfaceVertex>& t = *whole;
    auto shown = std::make_shared<std::vector<RoundSurfaceVertex>>();
    for (size_t i = 0; i + 2 < t.size(); i += 3) {
        const std::array<Vec3, 3> c{frame.toShape(t[i].position), frame.toShape(t[i + 1].position), frame.toShape(t[i + 2].position)};
        const bool hidden = std::any_of(near.begin(), near.end(), [&](size_t b) {
            const RoundBrush& other = *entries[b].round;
            return deepInside(frame, other, c[0], depth) && deepInside(frame, other, c[1], depth) &&
                   deepInside(frame, other, c[2], depth);
        });
        if (!hidden) shown->insert(shown->end(), t.begin() + std::ptrdiff_t(i), t.begin() + std::ptrdiff_t(i + 3));
    }
    if (shown->size() == t.size()) return whole;
    return shown;
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
    std::vector<bool> reused(entries_.size(), false);
    for (size_t b = 0; b < world.brushes.size(); ++b) {
        const Brush& brush = world.brushes[b];
        Entry& e = next[b];
        e.key = brushKey(brush);
        const auto [first, last] = old.equal_range(e.key);
        for (auto it = first; it != last && !e.surface; ++it)
            if (same(entries_[it->second], brush)) {
                e = entries_[it->second];
                reused[it->second] = true;
            }
        if (e.surface) continue;
        for (const BrushSide& s : brush.sides) e.planes.push_back(s.plane);
        e.contents = brush.contents;
        e.excludedPoses = brush.excludedPoses;
        todo.push_back(b);
    }
    const RoundShapeFrame frame = RoundShapeFrame::of(pose.shape);
    parallelFor(todo.size(), threads, [&](size_t k) {
        if (cancel && cancel->cancelled.load(std::memory_order_relaxed)) return;
        const size_t b = todo[k];
        auto surface = std::make_shared<std::vector<RoundSurfaceVertex>>();
        if (blocks(world.brushes[b], pose))
            if (const BrushGeometryResult g = buildBrushGeometry(world.brushes[b], world.bounds); g.geometry) {
                appendRoundExpandedSurface(*g.geometry, pose.shape, kRoundSurfaceStep, *surface);
                if (!surface->empty()) next[b].round = std::make_shared<const RoundBrush>(RoundBrush::of(*g.geometry, frame));
            }
        for (const RoundSurfaceVertex& v : *surface) next[b].bounds.add(v.position);
        next[b].surface = std::move(surface);
    });
    throwIfCancelled(cancel);
    // The shown triangles change for the new brushes and for those near where a brush
    // came or went (its triangles' box, old or new).
    std::vector<Aabb> changed;
    for (const size_t b : todo) changed.push_back(next[b].bounds);
    for (size_t i = 0; i < entries_.size(); ++i)
        if (!reused[i]) changed.push_back(entries_[i].bounds);
    std::vector<bool> sort(next.size(), false);
    for (const size_t b : todo) sort[b] = true;
    for (size_t b = 0; b < next.size(); ++b)
        sort[b] = sort[b] || std::any_of(changed.begin(), changed.end(), [&](const Aabb& box) { return overlap(box, next[b].bounds); });
    std::vector<size_t> resort;
    for (size_t b = 0; b < next.size(); ++b)
        if (sort[b]) resort.push_back(b);
    const double depth = kHiddenDepthSags * frame.radius * (1.0 - std::cos(kRoundSurfaceStep));
    parallelFor(resort.size(), threads, [&](size_t k) {
        if (cancel && cancel->cancelled.load(std::memory_order_relaxed)) return;
        next[resort[k]].shown = shownPart(next, resort[k], frame, depth);
    });
    throwIfCancelled(cancel);
    pose_ = pose;
    entries_ = std::move(next);
    tessellated_ = todo.size();
    sortedOut_ = resort.size();
}

std::vector<RoundSurfacePiece> RoundExpandedWorld::pieces() const {
    std::vector<RoundSurfacePiece> out;
    out.reserve(entries_.size());
    for (const Entry& e : entries_) out.push_back(e.surface);
    return out;
}

std::vector<RoundSurfacePiece> RoundExpandedWorld::shown() const {
    std::vector<RoundSurfacePiece> out;
    out.reserve(entries_.size());
    for (const Entry& e : entries_) out.push_back(e.shown);
    return out;
}

std::vector<Aabb> RoundExpandedWorld::bounds() const {
    std::vector<Aabb> out;
    out.reserve(entries_.size());
    for (const Entry& e : entries_) out.push_back(e.bounds);
    return out;
}

} // namespace shallot
