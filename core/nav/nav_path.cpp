#include "nav/nav_path.h"

#include "nav/edge_probes.h"
#include "query/trace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <queue>

namespace shallot {

namespace {

// Points closer than this are one corner of a path.
constexpr double kSamePoint = 1e-6;

// Positive when c lies to the left of a -> b seen from above.
double cross2(const Vec3& a, const Vec3& b, const Vec3& c) {
    return (b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x());
}

bool samePoint(const Vec3& a, const Vec3& b) { return (a - b).squaredNorm() < kSamePoint * kSamePoint; }

Vec3 closestOnSegment(const Vec3& p, const Vec3& a, const Vec3& b) {
    const Vec3 d = b - a;
    const double len2 = d.squaredNorm();
    if (len2 <= 0.0) return a;
    return a + d * std::clamp((p - a).dot(d) / len2, 0.0, 1.0);
}

// Whether the goal's component is reached from the start's over the drops between them.
bool componentReached(const NavMesh& mesh, int32_t from, int32_t to) {
    if (from == to) return true;
    std::vector<bool> seen(mesh.componentDrops.size(), false);
    std::vector<int32_t> queue{from};
    seen[size_t(from)] = true;
    for (size_t i = 0; i < queue.size(); ++i)
        for (int32_t next : mesh.componentDrops[size_t(queue[i])]) {
            if (next == to) return true;
            if (!seen[size_t(next)]) {
                seen[size_t(next)] = true;
                queue.push_back(next);
            }
        }
    return false;
}

// A* over polygons, each entered at one point: the links walked from `start` to `goal`
// (empty when the goal is the start's polygon), or nothing.
std::optional<std::vector<int32_t>> searchLinks(const NavMesh& mesh, int32_t startPoly, const Vec3& start, int32_t goalPoly,
                                               const Vec3& goal) {
    // Per-thread arrays over the polygons, kept between queries: a polygon's entries count
    // only when its stamp is this query's (no clearing of thousands of entries per query).
    struct Scratch {
        std::vector<double> cost;
        std::vector<Vec3> entry;
        std::vector<int32_t> via; // the link that entered the polygon
        std::vector<uint32_t> seen, closed;
        uint32_t query = 0;
    };
    thread_local Scratch scratch;
    const size_t n = mesh.polygons.size();
    if (scratch.seen.size() < n || ++scratch.query == 0) {
        scratch = Scratch{};
        scratch.cost.resize(n);
        scratch.entry.resize(n);
        scratch.via.resize(n);
        scratch.seen.assign(n, 0);
        scratch.closed.assign(n, 0);
        scratch.query = 1;
    }
    const uint32_t query = scratch.query;
    auto costOf = [&](int32_t p) {
        return scratch.seen[size_t(p)] == query ? scratch.cost[size_t(p)] : std::numeric_limits<double>::infinity();
    };
    auto isClosed = [&](int32_t p) { return scratch.closed[size_t(p)] == query; };
    using Item = std::pair<double, int32_t>; // (cost + estimate, polygon)
    std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
    scratch.seen[size_t(startPoly)] = query;
    scratch.cost[size_t(startPoly)] = 0.0;
    scratch.entry[size_t(startPoly)] = start;
    open.push({(goal - start).norm(), startPoly});
    while (!open.empty()) {
        const int32_t p = open.top().second;
        open.pop();
        if (isClosed(p)) continue;
        scratch.closed[size_t(p)] = query;
        if (p == goalPoly) break;
        const NavPolygon& poly = mesh.polygons[size_t(p)];
        const Vec3 at = scratch.entry[size_t(p)];
        const double here = scratch.cost[size_t(p)];
        for (uint32_t k = poly.firstLink; k < poly.firstLink + poly.linkCount; ++k) {
            const NavLink& l = mesh.links[k];
            if (isClosed(l.to)) continue;
            Vec3 next;
            double step;
            if (l.kind == NavLinkKind::Walk) {
                next = closestOnSegment(at, l.start, l.end);
                step = (next - at).norm();
            } else { // a jump costs its flight: up, across, down
                next = l.end;
                step = (l.start - at).norm() +
                       (l.kind == NavLinkKind::Jump ? navJumpFlightLength(mesh, l) : (l.end - l.start).norm());
            }
            const double c = here + step;
            if (c >= costOf(l.to)) continue;
            scratch.seen[size_t(l.to)] = query;
            scratch.cost[size_t(l.to)] = c;
            scratch.entry[size_t(l.to)] = next;
            scratch.via[size_t(l.to)] = int32_t(k);
            open.push({c + (goal - next).norm(), l.to});
        }
    }
    if (!isClosed(goalPoly)) return std::nullopt;
    std::vector<int32_t> links;
    for (int32_t p = goalPoly; p != startPoly;) {
        const int32_t k = scratch.via[size_t(p)];
        links.push_back(k);
        p = mesh.links[size_t(k)].from;
    }
    std::reverse(links.begin(), links.end());
    return links;
}

// How far along a walk link's shared edge, from its end `at` towards `other`, a path must
// keep to stay kNavCornerInset (seen from above) from the free edges of the two polygons
// that end lies on.
double insetFromFreeEdges(const NavMesh& mesh, const NavLink& l, const Vec3& at, const Vec3& other) {
    const double length = (other - at).norm();
    if (length <= 0.0) return 0.0;
    const Vec3 along = (other - at) / length;
    double inset = 0.0;
    for (int32_t p : {l.from, l.to}) {
        for (const auto& [a, b] : mesh.polygons[size_t(p)].freeEdges) {
            if ((closestOnSegment(at, a, b) - at).norm() > 10 * kNavEdgeDistance) continue;
            Vec3 wall = b - a;
            wall.z() = 0.0;
            if (wall.norm() <= 0.0) continue;
            // Moving along the shared edge by t moves away from the wall's line by t sin.
            const double sine = std::abs(cross2(Vec3::Zero(), wall.normalized(), Vec3(along.x(), along.y(), 0.0)));
            if (sine < 1e-6) continue; // the shared edge runs along the wall
            inset = std::max(inset, kNavCornerInset / sine);
        }
    }
    return std::min(inset, kNavCornerInset / 1e-3);
}

// One stretch walked across shared edges: its start, the edges crossed (left and right
// ends, as seen walking across), the polygons between them and its end.
struct Corridor {
    std::vector<Vec3> left, right; // portal 0 is the start, the last the end (both ends equal)
    std::vector<int32_t> polygons; // polygons[j] lies between portals j and j + 1
};

// The funnel algorithm over a corridor: the corners (start, the portal ends it turns at,
// end) and the portal index of each.
std::vector<std::pair<Vec3, size_t>> pullString(const Corridor& c) {
    std::vector<std::pair<Vec3, size_t>> out{{c.left[0], 0}};
    const size_t n = c.left.size();
    Vec3 apex = c.left[0], left = c.left[0], right = c.right[0];
    size_t apexIndex = 0, leftIndex = 0, rightIndex = 0;
    for (size_t i = 1; i < n; ++i) {
        const Vec3& l = c.left[i];
        const Vec3& r = c.right[i];
        // The right side closes in (r is left of the apex -> right ray, or on it).
        if (cross2(apex, right, r) >= 0.0) {
            if (samePoint(apex, right) || cross2(apex, left, r) < 0.0) {
                right = r;
                rightIndex = i;
            } else { // it crosses the left side: the left end is a corner
                apex = left;
                apexIndex = leftIndex;
                out.push_back({apex, apexIndex});
                left = right = apex;
                leftIndex = rightIndex = apexIndex;
                i = apexIndex;
                continue;
            }
        }
        if (cross2(apex, left, l) <= 0.0) {
            if (samePoint(apex, left) || cross2(apex, right, l) > 0.0) {
                left = l;
                leftIndex = i;
            } else {
                apex = right;
                apexIndex = rightIndex;
                out.push_back({apex, apexIndex});
                left = right = apex;
                leftIndex = rightIndex = apexIndex;
                i = apexIndex;
                continue;
            }
        }
    }
    if (!samePoint(out.back().first, c.left[n - 1])) out.push_back({c.left[n - 1], n - 1});
    return out;
}

// The corridor's path: its corners, and where a straight stretch between two corners
// crosses onto another surface, the crossing point (so every stretch lies on one plane).
// A stretch that grazes an obstacle on its way (two corners pulled tight along a wall, or
// a wall leaning over the floor) goes through the middles of the edges it crosses instead.
void appendCorridorPath(const BspTree& tree, const NavMesh& mesh, const Corridor& c, std::vector<Vec3>& points) {
    const auto corners = pullString(c);
    const Vec3 lift = Vec3::UnitZ() * kNavStretchCheckLift;
    for (size_t k = 0; k < corners.size(); ++k) {
        if (k > 0) {
            const Vec3& a = corners[k - 1].first;
            const Vec3& b = corners[k].first;
            if (traceSegment(tree, mesh.pose, a + lift, b + lift).hit) {
                for (size_t j = corners[k - 1].second + 1; j < corners[k].second; ++j) points.push_back(0.5 * (c.left[j] + c.right[j]));
                points.push_back(b);
                continue;
            }
            for (size_t j = corners[k - 1].second + 1; j < corners[k].second; ++j) {
                const NavPolygon& before = mesh.polygons[size_t(c.polygons[j - 1])];
                const NavPolygon& after = mesh.polygons[size_t(c.polygons[j])];
                if (before.plane == after.plane) continue;
                // Where a -> b crosses portal j seen from above, taken on the portal.
                const Vec3& p = c.right[j];
                const Vec3& q = c.left[j];
                const double denominator = cross2(Vec3::Zero(), b - a, q - p);
                if (std::abs(denominator) < 1e-12) continue;
                const double s = std::clamp(cross2(Vec3::Zero(), b - a, a - p) / denominator, 0.0, 1.0);
                points.push_back(p + (q - p) * s);
            }
        }
        points.push_back(corners[k].first);
    }
}

// `p`, or when it is in solid for the pose (a point placed for a smaller pose, its box
// sunk into the floor), the first point above it that is not, within the pose's height.
Vec3 outOfTheFloor(const BspTree& tree, int pose, const Vec3& p) {
    const Pose& box = tree.poses[size_t(pose)];
    const double height = box.maxs.z() - box.mins.z();
    for (double up = 0.0; up <= height; up += kNavRaiseStep) {
        const Vec3 q = p + Vec3::UnitZ() * up;
        if (!tree.isSolid(q, pose)) return q;
    }
    return p;
}

} // namespace

NavPath findPath(const BspTree& tree, const NavMesh& mesh, const Vec3& from, const Vec3& to) {
    NavPath out;
    const Landing start = dropToFloor(tree, mesh, outOfTheFloor(tree, mesh.pose, from)),
                  goal = dropToFloor(tree, mesh, outOfTheFloor(tree, mesh.pose, to));
    if (start.polygon < 0 || goal.polygon < 0) return out;
    if (!componentReached(mesh, mesh.polygons[size_t(start.polygon)].component, mesh.polygons[size_t(goal.polygon)].component))
        return out;
    const auto links = searchLinks(mesh, start.polygon, start.point, goal.polygon, goal.point);
    if (!links) return out;
    out.found = true;
    Corridor c;
    auto beginCorridor = [&](const Vec3& at, int32_t polygon) {
        c = Corridor{{at}, {at}, {polygon}};
    };
    auto endCorridor = [&](const Vec3& at) {
        c.left.push_back(at);
        c.right.push_back(at);
        appendCorridorPath(tree, mesh, c, out.points);
    };
    beginCorridor(start.point, start.polygon);
    for (int32_t k : *links) {
        const NavLink& l = mesh.links[size_t(k)];
        if (l.kind == NavLinkKind::Walk) {
            // Walking from l.from across to l.to, l.end is on the left. Its ends move in,
            // away from the free edges they lie on.
            Vec3 left = l.end, right = l.start;
            const double length = (left - right).norm();
            const double leftIn = insetFromFreeEdges(mesh, l, left, right), rightIn = insetFromFreeEdges(mesh, l, right, left);
            if (leftIn + rightIn < length) {
                const Vec3 along = (left - right) / length;
                left -= along * leftIn;
                right += along * rightIn;
            } else {
                left = right = right + (left - right) * (rightIn / (leftIn + rightIn));
            }
            c.left.push_back(left);
            c.right.push_back(right);
            c.polygons.push_back(l.to);
        } else { // up, down, off an edge or a jump: take off there, land, walk on
            endCorridor(l.start);
            beginCorridor(l.end, l.to);
        }
    }
    endCorridor(goal.point);
    // One point for a corner reached twice (a corridor ending where the next begins).
    std::vector<Vec3> points;
    for (const Vec3& p : out.points)
        if (points.empty() || !samePoint(points.back(), p)) points.push_back(p);
    out.points = std::move(points);
    for (size_t i = 1; i < out.points.size(); ++i) out.length += (out.points[i] - out.points[i - 1]).norm();
    return out;
}

} // namespace shallot
