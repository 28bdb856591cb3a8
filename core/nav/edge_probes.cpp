#include "nav/edge_probes.h"

#include "query/slide_move.h"
#include "query/trace.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace shallot {

namespace {

// The free parts of [0, length] outside the covered intervals.
std::vector<std::pair<double, double>> freeParts(EdgeIntervals covered, double length) {
    std::sort(covered.begin(), covered.end());
    std::vector<std::pair<double, double>> out;
    double at = 0.0;
    for (const auto& [lo, hi] : covered) {
        if (lo - at > kNavMinSharedEdge) out.push_back({at, lo});
        at = std::max(at, hi);
    }
    if (length - at > kNavMinSharedEdge) out.push_back({at, length});
    return out;
}

// Walks down to every cell whose closure holds p (to within kTraceOnPlaneEpsilon of the
// split planes, going down both sides of a plane p lies on). onPlane(node) is asked at
// each such split and atLeaf(leaf) at each cell reached; either returning true stops the
// walk, which then returns true.
template <class OnPlane, class AtLeaf>
bool anyInClosure(const BspTree& tree, const Vec3& p, const OnPlane& onPlane, const AtLeaf& atLeaf) {
    thread_local std::vector<ChildRef> stack;
    stack.clear();
    stack.push_back(tree.root);
    while (!stack.empty()) {
        ChildRef at = stack.back();
        stack.pop_back();
        while (!isLeaf(at)) {
            const BspNode& node = tree.nodes[size_t(at)];
            const double d = tree.planes[size_t(node.plane)].signedDistance(p);
            if (std::abs(d) > kTraceOnPlaneEpsilon) {
                at = childAt(node, d);
                continue;
            }
            if (onPlane(node)) return true;
            stack.push_back(node.back);
            at = node.front;
        }
        if (atLeaf(leafIndex(at))) return true;
    }
    return false;
}

// Whether a fall's contact lies on a crease: within kTraceOnPlaneEpsilon of a split plane
// other than the one it reports and not vertical (a vertical fall stops only where a
// plane that is not vertical cuts it: one in which it runs is passed down both sides), on
// the way down to any cell whose closure holds the contact. Where a floor meets a slope the
// plane the trace reports, and so the landing's normal and its point to rounding, depend
// on how the tree was cut: such a probe is traced again after an edit. (A tree may also
// carry a plane through the contact that another tree does not have there, a splitter
// extended across empty space: not looked for.)
bool onCrease(const BspTree& tree, const TraceResult& r) {
    return anyInClosure(
        tree, r.point,
        [&](const BspNode& node) {
            return (node.plane ^ r.plane) > 1 && std::abs(tree.planes[size_t(node.plane)].normal.z()) > kPlaneNormalEpsilon;
        },
        [](int32_t) { return false; });
}

// Whether p lies in the interior of the pose's solid: every leaf whose cell's closure holds
// p (to within kTraceOnPlaneEpsilon of the split planes) is solid. A point on a wall's face
// is not.
bool interiorSolid(const BspTree& tree, int pose, const Vec3& p) {
    const uint64_t poseBit = uint64_t(1) << pose;
    return !anyInClosure(
        tree, p, [](const BspNode&) { return false; },
        [&](int32_t leaf) { return !(tree.leafSolid[size_t(leaf)] & poseBit); });
}

// Whether a trace's answer at its end may depend on the tree: it was not stopped, but
// solid lies straight ahead of its end within twice kTraceOnPlaneEpsilon, or it was stopped
// within kNavJumpReachRounding of its end (another tree may call either a hit or not). A
// trace running along a wall's face (the rise from an edge at a riser's foot) is not
// stopped by it, and what lies ahead of its end is the face again: not ambiguous.
bool endAmbiguous(const BspTree& tree, int pose, const TraceResult& r, const Vec3& from, const Vec3& to) {
    if (r.startSolid) return false;
    const double length = (to - from).norm();
    if (length <= 0.0) return false;
    if (!r.hit) return interiorSolid(tree, pose, to + (to - from) * (2 * kTraceOnPlaneEpsilon / length));
    return (1.0 - r.t) * length <= kNavJumpReachRounding;
}

// Where a trace from `from` falls straight down by `depth` (nothing when it starts in solid
// or falls out of the world); `low` becomes the lowest z it reached. `fragile` (when given)
// is set when the fall stops on a crease (onCrease). A fall down a wall's face (in the
// plane of a split) is not fragile itself: the trace passes such a stretch down both sides
// of the plane, in every tree that has the face, and so stops where both sides are solid;
// only the plane it reports there may vary, and that is a crease.
std::optional<TraceResult> fall(const BspTree& tree, int pose, const Vec3& from, double depth, double& low, bool* fragile) {
    const Vec3 to = from - Vec3::UnitZ() * depth;
    const TraceResult r = traceSegment(tree, pose, from, to);
    if (fragile && !*fragile) *fragile = r.hit && onCrease(tree, r);
    low = std::min(low, r.hit ? r.point.z() : from.z() - depth);
    if (r.startSolid || !r.hit) return std::nullopt;
    return r;
}

// The step or drop probe from q (on a free edge, `out` its outward level normal): the
// walkable ground it lands on.
NavProbeMemo::Sample probeStep(const BspTree& tree, int pose, const NavSettings& s, const Vec3& q, const Vec3& out,
                               double worldDepth, bool recording) {
    const Vec3 up = Vec3::UnitZ();
    NavProbeMemo::Sample o;
    bool* fragile = recording ? &o.fragile : nullptr;
    const Vec3 lifted = q + up * kNavProbeLift;
    const Vec3 ahead = lifted + out * kNavProbeReach;
    o.low = o.high = lifted.z();
    // A trace whose end touches solid, or that is stopped right at its end, makes the
    // probe fragile (endAmbiguous): whether it got through may depend on the tree.
    auto through = [&](const Vec3& a, const Vec3& b) {
        const TraceResult r = traceSegment(tree, pose, a, b);
        if (fragile && !*fragile) *fragile = endAmbiguous(tree, pose, r, a, b);
        return r;
    };
    const TraceResult level = through(lifted, ahead);
    if (level.startSolid) return o;
    std::optional<TraceResult> landing;
    if (!level.hit) {
        landing = fall(tree, pose, ahead, worldDepth, o.low, fragile);
    } else {
        // Blocked: up by the step height, out, and down onto the step.
        const Vec3 raised = lifted + up * s.stepHeight;
        o.high = raised.z();
        if (through(lifted, raised).hit) return o;
        const Vec3 over = raised + out * kNavProbeReach;
        if (through(raised, over).hit) return o;
        landing = fall(tree, pose, over, s.stepHeight + kNavProbeLift, o.low, fragile);
    }
    if (landing && !level.hit && landing->normal.z() < s.walkableNormalZ) {
        // Off the edge onto ground too steep to stand on: the box slides down it, as Quake's does, until it
        // rests on ground it can stand on (collide-and-slide under gravity). The slide may
        // run far from the edge, outside the probe's recorded box: never reused.
        if (fragile) *fragile = true;
        const MoveResult slid = slideMove(tree, pose, landing->point + up * kNavProbeLift, -up * worldDepth, 0.0);
        o.low = std::min(o.low, slid.end.z());
        landing = fall(tree, pose, slid.end + up * kNavProbeLift, kNavSlideSettle, o.low, fragile);
        o.slid = true;
    }
    if (!landing || landing->normal.z() < s.walkableNormalZ) return o;
    o.landed = true;
    o.point = landing->point;
    return o;
}

// Whether the box of a probe from q out to q + out * distance over [low, high] touches the
// region.
bool touches(const std::vector<Aabb>& region, const Vec3& q, const Vec3& out, double distance, double low, double high) {
    Aabb box;
    box.add(Vec3(q.x(), q.y(), low));
    box.add(Vec3(q.x() + out.x() * distance, q.y() + out.y() * distance, high));
    box.add(Vec3(q.x(), q.y(), high));
    for (const Aabb& r : region)
        if (box.overlaps(r)) return true;
    return false;
}

template <class T> void hashCombine(size_t& h, const T& v) { h ^= std::hash<T>{}(v) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); }

} // namespace

size_t NavProbeMemo::KeyHash::operator()(const Key& k) const {
    size_t h = 0;
    for (int i = 0; i < 3; ++i) {
        hashCombine(h, k.a[i]);
        hashCombine(h, k.b[i]);
    }
    hashCombine(h, k.lo);
    hashCombine(h, k.hi);
    return h;
}

void addProbeLinks(const BspTree& tree, NavMesh& mesh, const std::vector<std::vector<EdgeIntervals>>& covered,
                   NavProbeReuse* reuse) {
    const int pose = mesh.pose;
    const NavSettings& s = mesh.settings;
    const double worldDepth = tree.bounds.maxs.z() - tree.bounds.mins.z();
    const NavProbeMemo* previous = reuse ? reuse->previous : nullptr;
    NavProbeMemo* record = reuse ? reuse->record : nullptr;
    std::vector<NavLink> found;
    for (size_t pi = 0; pi < mesh.polygons.size(); ++pi) {
        const NavPolygon poly = mesh.polygons[pi]; // a copy: its free edges are added below
        const size_t n = poly.vertices.size();
        for (size_t e = 0; e < n; ++e) {
            const Vec3& a = poly.vertices[e];
            const Vec3& b = poly.vertices[(e + 1) % n];
            const double length = (b - a).norm();
            // Outward, level: the polygon lies to the left of its edges seen from above.
            Vec3 out(b.y() - a.y(), a.x() - b.x(), 0.0);
            if (out.norm() < 1e-9) continue; // a vertical edge: nothing to step off
            out.normalize();
            for (const auto& [lo, hi] : freeParts(covered[pi][e], length)) {
                mesh.polygons[pi].freeEdges.push_back({a + (b - a) * (lo / length), a + (b - a) * (hi / length)});
                const int samples = std::max(1, int(std::ceil((hi - lo) / kNavProbeSpacing)));
                const NavProbeMemo::Key key{a, b, lo, hi};
                const NavProbeMemo::Sample* kept = nullptr;
                if (previous) {
                    const auto it = previous->edges.find(key);
                    if (it != previous->edges.end()) kept = &previous->samples[it->second];
                }
                if (record) record->edges.emplace(key, uint32_t(record->samples.size()));
                for (int k = 0; k < samples; ++k) {
                    const double t = lo + (hi - lo) * (k + 0.5) / samples;
                    const Vec3 q = a + (b - a) * (t / length);
                    NavProbeMemo::Sample o;
                    if (kept && !kept[k].fragile && !touches(reuse->region, q, out, kNavProbeReach, kept[k].low, kept[k].high)) {
                        o = kept[k];
                        ++reuse->reused;
                    } else {
                        if (kept && kept[k].fragile) ++reuse->fragile;
                        o = probeStep(tree, pose, s, q, out, worldDepth, record != nullptr);
                        if (reuse) ++reuse->traced;
                    }
                    if (record) record->samples.push_back(o);
                    if (!o.landed) continue;
                    const int32_t to = mesh.polygonAt(o.point);
                    if (to < 0 || size_t(to) == pi) continue;
                    const double rise = o.point.z() - q.z();
                    NavLinkKind kind;
                    if (rise > s.stepHeight + kNavProbeLift) continue; // cannot happen: the fall starts lower
                    else if (o.slid) {
                        // One way however shallow: no step climbs back up the slope.
                        if (rise >= 0.0 || -rise > s.maxDrop) continue;
                        kind = NavLinkKind::Drop;
                    } else if (rise >= 0.0) kind = NavLinkKind::StepUp;
                    else if (-rise <= s.stepHeight) kind = NavLinkKind::StepDown;
                    else if (-rise <= s.maxDrop) kind = NavLinkKind::Drop;
                    else continue;
                    // Taking off a little inside the polygon (on its plane), where it is ground
                    // for sure.
                    Vec3 takeoff = q - out * kNavTakeoffInset;
                    takeoff.z() -= poly.normal.dot(takeoff - q) / poly.normal.z();
                    found.push_back({int32_t(pi), to, kind, takeoff, o.point});
                }
            }
        }
    }
    mesh.links.insert(mesh.links.end(), found.begin(), found.end());
}

void addJumpLinks(const BspTree& tree, NavMesh& mesh, NavProbeReuse* reuse) {
    const int pose = mesh.pose;
    const NavSettings& s = mesh.settings;
    if (!s.jump || s.jumpHeight <= 0.0 || s.jumpLength <= 0.0) return;
    const Vec3 up = Vec3::UnitZ();
    const double worldDepth = tree.bounds.maxs.z() - tree.bounds.mins.z();
    // The fall from the apex goes as deep as a landing may lie.
    const double depth = s.jumpHeight + kNavProbeLift + std::min(s.maxDrop, worldDepth);
    const NavProbeMemo* previous = reuse ? reuse->previous : nullptr;
    NavProbeMemo* record = reuse ? reuse->record : nullptr;
    std::vector<NavLink> found;
    std::vector<int32_t> landed;  // components landed in from the current edge point
    std::vector<Vec3> landings;   // the walkable ground under the current flight, nearest first
    for (size_t pi = 0; pi < mesh.polygons.size(); ++pi) {
        const NavPolygon& poly = mesh.polygons[pi];
        for (const auto& [a, b] : poly.freeEdges) {
            const double length = (b - a).norm();
            Vec3 out(b.y() - a.y(), a.x() - b.x(), 0.0);
            if (out.norm() < 1e-9) continue;
            out.normalize();
            const int samples = std::max(1, int(std::ceil(length / kNavProbeSpacing)));
            const NavProbeMemo::Key key{a, b, 0.0, 0.0};
            const NavProbeMemo::Jump* kept = nullptr;
            if (previous) {
                const auto it = previous->jumpEdges.find(key);
                if (it != previous->jumpEdges.end()) kept = &previous->jumps[it->second];
            }
            if (record) record->jumpEdges.emplace(key, uint32_t(record->jumps.size()));
            for (int k = 0; k < samples; ++k) {
                const Vec3 q = a + (b - a) * ((k + 0.5) / samples);
                NavProbeMemo::Jump flight;
                landings.clear();
                if (kept && !kept[k].fragile && !touches(reuse->region, q, out, s.jumpLength, kept[k].low, kept[k].high)) {
                    flight = kept[k];
                    landings.assign(previous->landings.begin() + flight.first,
                                    previous->landings.begin() + flight.first + flight.count);
                    ++reuse->reusedJumps;
                } else {
                    if (reuse) ++reuse->tracedJumps;
                    if (kept && kept[k].fragile) ++reuse->fragileJumps;
                    bool* fragile = record ? &flight.fragile : nullptr;
                    // 1. Up by the jump height, in full.
                    const Vec3 lifted = q + up * kNavProbeLift;
                    const Vec3 apex = lifted + up * s.jumpHeight;
                    flight.low = lifted.z();
                    flight.high = apex.z();
                    const TraceResult rise = traceSegment(tree, pose, lifted, apex);
                    if (fragile) *fragile = endAmbiguous(tree, pose, rise, lifted, apex);
                    if (!rise.startSolid && !rise.hit) {
                        // 2. Out, level, as far as the jump length or the first obstacle.
                        const TraceResult across = traceSegment(tree, pose, apex, apex + out * s.jumpLength);
                        if (!across.startSolid) {
                            const double reach = across.hit ? across.t * s.jumpLength - kNavEdgeDistance : s.jumpLength;
                            if (fragile && !*fragile) {
                                // Which points the falls start from depends on the reach: where
                                // it is within rounding of one of them, or the flight ends touching
                                // solid or is stopped at its very end (another tree may call that a
                                // hit or not), the probe is fragile.
                                if (endAmbiguous(tree, pose, across, apex, apex + out * s.jumpLength)) {
                                    *fragile = true;
                                } else if (across.hit) {
                                    for (double d = kNavProbeReach; d <= reach + kNavJumpReachRounding;
                                         d += (d < kNavJumpSpacing ? kNavJumpSpacing - d : kNavJumpSpacing))
                                        if (d >= reach - kNavJumpReachRounding) *fragile = true;
                                }
                            }
                            // 3. Down onto the ground below, every kNavJumpSpacing units out.
                            for (double d = kNavProbeReach; d <= reach; d += (d < kNavJumpSpacing ? kNavJumpSpacing - d : kNavJumpSpacing)) {
                                const std::optional<TraceResult> landing = fall(tree, pose, apex + out * d, depth, flight.low, fragile);
                                if (!landing || landing->normal.z() < s.walkableNormalZ) continue;
                                landings.push_back(landing->point);
                            }
                        }
                    }
                }
                if (record) {
                    flight.first = uint32_t(record->landings.size());
                    flight.count = uint32_t(landings.size());
                    record->landings.insert(record->landings.end(), landings.begin(), landings.end());
                    record->jumps.push_back(flight);
                }
                landed.clear();
                for (const Vec3& point : landings) {
                    const int32_t to = mesh.polygonAt(point);
                    if (to < 0) continue;
                    const int32_t component = mesh.polygons[size_t(to)].component;
                    if (component == poly.component) continue;
                    const double height = point.z() - q.z();
                    if (height > s.jumpHeight || -height > s.maxDrop) continue;
                    if (std::find(landed.begin(), landed.end(), component) != landed.end()) continue;
                    landed.push_back(component);
                    Vec3 takeoff = q - out * kNavTakeoffInset;
                    takeoff.z() -= poly.normal.dot(takeoff - q) / poly.normal.z();
                    found.push_back({int32_t(pi), to, NavLinkKind::Jump, takeoff, point});
                }
            }
        }
    }
    mesh.links.insert(mesh.links.end(), found.begin(), found.end());
}

double navJumpFlightLength(const NavMesh& mesh, const NavLink& link) {
    const Vec3 d = link.end - link.start;
    const double apex = std::max(mesh.settings.jumpHeight, d.z());
    return apex + std::hypot(d.x(), d.y()) + (apex - d.z());
}

} // namespace shallot
