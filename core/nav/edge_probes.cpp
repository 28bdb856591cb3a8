#include "nav/edge_probes.h"

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

// Where the reference point lands falling from `from` (nothing when it starts in solid or
// falls out of the world).
std::optional<TraceResult> fall(const BspTree& tree, int pose, const Vec3& from, double depth) {
    const TraceResult r = traceSegment(tree, pose, from, from - Vec3::UnitZ() * depth);
    if (r.startSolid || !r.hit) return std::nullopt;
    return r;
}

} // namespace

void addProbeLinks(const BspTree& tree, NavMesh& mesh, const std::vector<std::vector<EdgeIntervals>>& covered) {
    const int pose = mesh.pose;
    const NavSettings& s = mesh.settings;
    const Vec3 up = Vec3::UnitZ();
    const double worldDepth = tree.bounds.maxs.z() - tree.bounds.mins.z();
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
                for (int k = 0; k < samples; ++k) {
                    const double t = lo + (hi - lo) * (k + 0.5) / samples;
                    const Vec3 q = a + (b - a) * (t / length);
                    const Vec3 lifted = q + up * kNavProbeLift;
                    const Vec3 ahead = lifted + out * kNavProbeReach;
                    const TraceResult level = traceSegment(tree, pose, lifted, ahead);
                    if (level.startSolid) continue;
                    std::optional<TraceResult> landing;
                    if (!level.hit) {
                        landing = fall(tree, pose, ahead, worldDepth);
                    } else {
                        // Blocked: up by the step height, out, and down onto the step.
                        const Vec3 raised = lifted + up * s.stepHeight;
                        if (traceSegment(tree, pose, lifted, raised).hit) continue;
                        const Vec3 over = raised + out * kNavProbeReach;
                        if (traceSegment(tree, pose, raised, over).hit) continue;
                        landing = fall(tree, pose, over, s.stepHeight + kNavProbeLift);
                    }
                    if (!landing || landing->normal.z() < s.walkableNormalZ) continue;
                    const int32_t to = mesh.polygonAt(landing->point);
                    if (to < 0 || size_t(to) == pi) continue;
                    const double rise = landing->point.z() - q.z();
                    NavLinkKind kind;
                    if (rise > s.stepHeight + kNavProbeLift) continue; // cannot happen: the fall starts lower
                    else if (rise >= 0.0) kind = NavLinkKind::StepUp;
                    else if (-rise <= s.stepHeight) kind = NavLinkKind::StepDown;
                    else if (-rise <= s.maxDrop) kind = NavLinkKind::Drop;
                    else continue;
                    // Taking off a little inside the polygon (on its plane), where it is ground
                    // for sure.
                    Vec3 takeoff = q - out * kNavTakeoffInset;
                    takeoff.z() -= poly.normal.dot(takeoff - q) / poly.normal.z();
                    found.push_back({int32_t(pi), to, kind, takeoff, landing->point});
                }
            }
        }
    }
    mesh.links.insert(mesh.links.end(), found.begin(), found.end());
}

void addJumpLinks(const BspTree& tree, NavMesh& mesh) {
    const int pose = mesh.pose;
    const NavSettings& s = mesh.settings;
    if (!s.jump || s.jumpHeight <= 0.0 || s.jumpLength <= 0.0) return;
    const Vec3 up = Vec3::UnitZ();
    const double worldDepth = tree.bounds.maxs.z() - tree.bounds.mins.z();
    // The fall from the apex goes as deep as a landing may lie.
    const double depth = s.jumpHeight + kNavProbeLift + std::min(s.maxDrop, worldDepth);
    std::vector<NavLink> found;
    std::vector<int32_t> landed; // components landed in from the current edge point
    for (size_t pi = 0; pi < mesh.polygons.size(); ++pi) {
        const NavPolygon& poly = mesh.polygons[pi];
        for (const auto& [a, b] : poly.freeEdges) {
            const double length = (b - a).norm();
            Vec3 out(b.y() - a.y(), a.x() - b.x(), 0.0);
            if (out.norm() < 1e-9) continue;
            out.normalize();
            const int samples = std::max(1, int(std::ceil(length / kNavProbeSpacing)));
            for (int k = 0; k < samples; ++k) {
                const Vec3 q = a + (b - a) * ((k + 0.5) / samples);
                // 1. Up by the jump height, in full.
                const Vec3 lifted = q + up * kNavProbeLift;
                const Vec3 apex = lifted + up * s.jumpHeight;
                const TraceResult rise = traceSegment(tree, pose, lifted, apex);
                if (rise.startSolid || rise.hit) continue;
                // 2. Out, level, as far as the jump length or the first obstacle.
                const TraceResult across = traceSegment(tree, pose, apex, apex + out * s.jumpLength);
                if (across.startSolid) continue;
                const double reach = across.hit ? across.t * s.jumpLength - kNavEdgeDistance : s.jumpLength;
                // 3. Down onto the ground below, every kNavJumpSpacing units out.
                landed.clear();
                for (double d = kNavProbeReach; d <= reach; d += (d < kNavJumpSpacing ? kNavJumpSpacing - d : kNavJumpSpacing)) {
                    const std::optional<TraceResult> landing = fall(tree, pose, apex + out * d, depth);
                    if (!landing || landing->normal.z() < s.walkableNormalZ) continue;
                    const int32_t to = mesh.polygonAt(landing->point);
                    if (to < 0) continue;
                    const int32_t component = mesh.polygons[size_t(to)].component;
                    if (component == poly.component) continue;
                    const double height = landing->point.z() - q.z();
                    if (height > s.jumpHeight || -height > s.maxDrop) continue;
                    if (std::find(landed.begin(), landed.end(), component) != landed.end()) continue;
                    landed.push_back(component);
                    Vec3 takeoff = q - out * kNavTakeoffInset;
                    takeoff.z() -= poly.normal.dot(takeoff - q) / poly.normal.z();
                    found.push_back({int32_t(pi), to, NavLinkKind::Jump, takeoff, landing->point});
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
