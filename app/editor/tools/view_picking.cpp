#include "tools/view_picking.h"

#include "editor.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace shallot {

std::optional<std::pair<double, double>> depthSpan(const BrushGeometry& g, const ViewPoint& p) {
    if (p.world[p.uAxis] < g.bounds.mins[p.uAxis] || p.world[p.uAxis] > g.bounds.maxs[p.uAxis] ||
        p.world[p.vAxis] < g.bounds.mins[p.vAxis] || p.world[p.vAxis] > g.bounds.maxs[p.vAxis])
        return std::nullopt;
    // Clip the line x(t) = p.world with x[depth] = t against every face plane.
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    Vec3 origin = p.world;
    origin[p.depthAxis] = 0.0;
    for (const ConvexFace& f : g.hull.faces) {
        const double slope = f.plane.normal[p.depthAxis];
        const double offset = f.plane.signedDistance(origin); // n.x - d at t = 0
        if (slope == 0.0) {
            if (offset > 0.0) return std::nullopt;
            continue;
        }
        const double t = -offset / slope;
        if (slope > 0.0) hi = std::min(hi, t);
        else lo = std::max(lo, t);
    }
    if (lo > hi) return std::nullopt;
    return std::make_pair(lo, hi);
}

namespace {
// Placed points rest this far above the surface under them, off the boundary.
constexpr double kRestClearance = 1.0;
// A brush whose span in a column starts within this of a top (rounding) stands on it.
constexpr double kCoverTolerance = 1e-6;
// Quake's stair step: an entity moved across a step up climbs it, as it would walk.
constexpr double kStairStep = 18.0;

// The depth spans (along z) of the brushes in the column through `point` that an entity's
// box stands on: solid, window and clip, not liquids or triggers (water is no floor, and
// an entity clicked in a pool is not in a brush).
std::vector<std::pair<double, double>> columnSpans(const Editor& editor, const Vec3& point) {
    ViewPoint column;
    column.world = point;
    std::vector<std::pair<double, double>> spans;
    const auto& brushes = editor.document().brushes();
    const auto& geometry = editor.geometry();
    for (size_t i = 0; i < geometry.size() && i < brushes.size(); ++i)
        if (geometry[i] && intersects(brushes[i].contents, defaultBlocking(false)))
            if (const auto span = depthSpan(*geometry[i], column)) spans.push_back(*span);
    return spans;
}
} // namespace

bool insideBrush(const Editor& editor, const Vec3& point) {
    const auto spans = columnSpans(editor, point);
    return std::any_of(spans.begin(), spans.end(), [&](const auto& s) {
        return s.first + kCoverTolerance < point.z() && point.z() < s.second - kCoverTolerance;
    });
}

std::optional<double> floorFollowingRise(const Editor& editor, const Aabb& box, const Vec3& offset) {
    if (box.empty()) return std::nullopt;
    const Vec3 middle = 0.5 * (box.mins + box.maxs);
    const std::optional<double> under = floorBelow(editor, Vec3(middle.x(), middle.y(), box.mins.z() + kCoverTolerance));
    if (!under) return std::nullopt;
    const double climb = *under + kStairStep;
    const std::optional<double> there = floorBelow(editor, Vec3(middle.x() + offset.x(), middle.y() + offset.y(), climb), true);
    if (!there || (*there > climb && *there > box.maxs.z())) return std::nullopt;
    return *there - *under;
}

std::optional<double> floorBelow(const Editor& editor, const Vec3& point, bool orLowest) {
    const std::vector<std::pair<double, double>> spans = columnSpans(editor, point);
    // A top another brush stands on or encloses is no floor (the room's floor under a flight
    // of stairs).
    auto covered = [&](double top) {
        return std::any_of(spans.begin(), spans.end(), [&](const auto& s) { return s.first <= top + kCoverTolerance && s.second > top + kCoverTolerance; });
    };
    std::optional<double> below, lowest;
    for (const auto& [bottom, top] : spans) {
        if (covered(top)) continue;
        if (top <= point.z() && (!below || top > *below)) below = top;
        if (!lowest || top < *lowest) lowest = top;
    }
    return below ? below : orLowest ? lowest : std::nullopt;
}

Vec3 placeInView(const Editor& editor, const ViewPoint& p) {
    Vec3 v = editor.snap(p.world);
    if (p.depthAxis == 2) {
        // Standing on the floor nearest below the working height (p.world.z): the pose's box
        // rests on the highest uncovered top under the cursor that is not above it, else on
        // the lowest uncovered top in that column, else on z = 0 (floorBelow).
        const int pose = editor.currentPose();
        const double lift = pose >= 0 ? -editor.document().poses()[size_t(pose)].mins.z() : 0.0;
        v.z() = floorBelow(editor, p.world, true).value_or(0.0) + lift + kRestClearance;
    }
    return v;
}

std::optional<int> pickBrush2d(const std::vector<std::shared_ptr<const BrushGeometry>>& geometry, const ViewPoint& p) {
    // Ranked by (class, distance): without a cut, class 0 for all, nearest the viewer first;
    // with one, the brushes the plane cuts (class 0, nearest the viewer), then those beyond
    // it (class 1, nearest the plane), then those in front of it (class 2, nearest the plane).
    const double cut = p.world[p.depthAxis] * p.depthSign; // depths measured towards the viewer
    std::optional<int> best;
    std::pair<int, double> bestRank{3, 0.0};
    for (size_t i = 0; i < geometry.size(); ++i) {
        if (!geometry[i]) continue;
        const auto span = depthSpan(*geometry[i], p);
        if (!span) continue;
        const double nearSide = p.depthSign > 0 ? span->second : -span->first;  // nearest the viewer
        const double farSide = p.depthSign > 0 ? span->first : -span->second;
        std::pair<int, double> rank{0, -nearSide};
        if (p.cutsAtDepth && farSide > cut) rank = {2, farSide - cut};
        else if (p.cutsAtDepth && nearSide < cut) rank = {1, cut - nearSide};
        if (!best || rank < bestRank) {
            bestRank = rank;
            best = int(i);
        }
    }
    return best;
}

} // namespace shallot
