#include "nav/nav_path.h"

#include "nav/edge_probes.h"
#include "query/trace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace shallot {

namespace {

// Points closer than this are one corner of a path.
constexpr double kSamePoint = 1e-6;

// How the stretch from a path's point to the next is travelled (kept beside the points
// while the path is made): walked on one plane, a step or drop across a riser (from its
// takeoff to its landing), a jump's flight, or a step or drop from the floor before the
// riser to its lower side (lowerRisers).
enum Stretch : char { kWalkStretch, kRiserStretch, kJumpStretch, kStepStretch };

bool samePoint(const Vec3& a, const Vec3& b) { return (a - b).squaredNorm() < kSamePoint * kSamePoint; }

Vec3 closestOnSegment(const Vec3& p, const Vec3& a, const Vec3& b) {
    const Vec3 d = b - a;
    const double len2 = d.squaredNorm();
    if (len2 <= 0.0) return a;
    return a + d * std::clamp((p - a).dot(d) / len2, 0.0, 1.0);
}

// Where a walk from `at` towards `goal` crosses the edge a..b seen from above: where the
// straight line does, else the end of the edge nearer to that line.
Vec3 towardGoal(const Vec3& at, const Vec3& goal, const Vec3& a, const Vec3& b) {
    const Vec3 d = goal - at, e = b - a;
    const double denominator = d.x() * e.y() - d.y() * e.x();
    if (std::abs(denominator) < 1e-12) return closestOnSegment(at, a, b);
    const Vec3 r = a - at;
    const double t = (r.x() * d.y() - r.y() * d.x()) / denominator;
    return a + e * std::clamp(t, 0.0, 1.0);
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
// (empty when the goal is the start's polygon), or nothing. A walk enters the next polygon
// where the straight line from the entry point to the goal crosses the shared edge (or at
// the edge's end nearer that line): costs are then those of a path heading for the goal,
// and the chain chosen is the one a pulled string shortens least. (Entering at the
// nearest point instead led down one side of a flight of steps and round a corner, 14%
// longer than the path down its other side on id_e1m1.)
std::optional<std::vector<int32_t>> searchLinks(const NavMesh& mesh, int32_t startPoly, const Vec3& start, int32_t goalPoly,
                                               const Vec3& goal, const NavLinkFilter& usable) {
    // Per-thread nodes over the polygons, kept between queries: a node counts only when its
    // stamp is this query's (no clearing of thousands of entries per query).
    struct Node {
        Vec3 entry;
        double cost;
        int32_t via; // the link that entered the polygon
        uint32_t seen, closed;
    };
    using Item = std::pair<double, int32_t>; // (cost + estimate, polygon)
    struct Scratch {
        std::vector<Node> nodes;
        std::vector<Item> open; // a min-heap
        uint32_t query = 0;
    };
    thread_local Scratch scratch;
    const size_t n = mesh.polygons.size();
    if (scratch.nodes.size() < n || ++scratch.query == 0) {
        scratch.nodes.assign(n, Node{Vec3::Zero(), 0.0, -1, 0, 0});
        scratch.query = 1;
    }
    const uint32_t query = scratch.query;
    std::vector<Node>& nodes = scratch.nodes;
    std::vector<Item>& open = scratch.open;
    open.clear();
    auto isClosed = [&](int32_t p) { return nodes[size_t(p)].closed == query; };
    const auto later = std::greater<Item>();
    nodes[size_t(startPoly)] = Node{start, 0.0, -1, query, 0};
    open.push_back({(goal - start).norm(), startPoly});
    while (!open.empty()) {
        std::pop_heap(open.begin(), open.end(), later);
        const int32_t p = open.back().second;
        open.pop_back();
        Node& node = nodes[size_t(p)];
        if (node.closed == query) continue;
        node.closed = query;
        if (p == goalPoly) break;
        const NavPolygon& poly = mesh.polygons[size_t(p)];
        const Vec3 at = node.entry;
        const double here = node.cost;
        for (uint32_t k = poly.firstLink; k < poly.firstLink + poly.linkCount; ++k) {
            if (usable && !usable(k)) continue;
            const NavLink& l = mesh.links[k];
            Node& to = nodes[size_t(l.to)];
            if (to.seen == query && to.closed == query) continue;
            Vec3 next;
            double step;
            if (l.kind == NavLinkKind::Walk) {
                next = towardGoal(at, goal, l.start, l.end);
                step = (next - at).norm();
            } else { // a jump costs its flight: up, across, down
                next = l.end;
                step = (l.start - at).norm() +
                       (l.kind == NavLinkKind::Jump ? navJumpFlightLength(mesh, l) : (l.end - l.start).norm());
            }
            const double c = here + step;
            if (to.seen == query && c >= to.cost) continue;
            to = Node{next, c, int32_t(k), query, 0};
            open.push_back({c + (goal - next).norm(), l.to});
            std::push_heap(open.begin(), open.end(), later);
        }
    }
    if (!isClosed(goalPoly)) return std::nullopt;
    std::vector<int32_t> links;
    for (int32_t p = goalPoly; p != startPoly;) {
        const int32_t k = nodes[size_t(p)].via;
        links.push_back(k);
        p = mesh.links[size_t(k)].from;
    }
    std::reverse(links.begin(), links.end());
    return links;
}

// One stretch walked across shared edges: its start, the edges crossed (left and right
// ends, as seen walking across), the polygons between them and its end. A step or drop
// the string is pulled across is two portals, its takeoff line on the polygon above (or
// below) and its landing line on the other, with the riser between them (polygon -1).
struct Corridor {
    std::vector<Vec3> left, right; // portal 0 is the start, the last the end (both ends equal)
    std::vector<int32_t> polygons; // polygons[j] lies between portals j and j + 1; -1: a riser
    std::vector<size_t> riserLink; // per riser in order, the index (in the path's links) of its step
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
        if (turnXY(apex, right, r) >= 0.0) {
            if (samePoint(apex, right) || turnXY(apex, left, r) < 0.0) {
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
        if (turnXY(apex, left, l) <= 0.0) {
            if (samePoint(apex, left) || turnXY(apex, right, l) > 0.0) {
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

// Where a -> b crosses portal j seen from above, taken on the portal (nothing when they
// run parallel).
std::optional<Vec3> crossing(const Corridor& c, size_t j, const Vec3& a, const Vec3& b) {
    const Vec3& p = c.right[j];
    const Vec3& q = c.left[j];
    const double denominator = turnXY(Vec3::Zero(), b - a, q - p);
    if (std::abs(denominator) < 1e-12) return std::nullopt;
    const double s = std::clamp(turnXY(Vec3::Zero(), b - a, a - p) / denominator, 0.0, 1.0);
    return p + (q - p) * s;
}

// The corridor's path: its corners, and where a straight stretch between two corners
// crosses onto another surface, the crossing point (so every stretch lies on one plane).
// A stretch that grazes an obstacle on its way (two corners pulled tight along a wall, or
// a wall leaning over the floor) goes through the middles of the edges it crosses instead.
// For a corridor without risers.
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
                if (const auto x = crossing(c, j, a, b)) points.push_back(*x);
            }
        }
        points.push_back(corners[k].first);
    }
}

// Whether the box gets from a to b (each resting on a floor) as Quake moves it: straight
// along when `walk`, else up to the higher one's height (at most the step height above
// a; at most maxDrop below it), across, and down. Each part is a swept trace
// kNavStretchCheckLift above the floor.
bool stretchClear(const BspTree& tree, const NavMesh& mesh, const Vec3& a, const Vec3& b, bool walk) {
    const Vec3 lift = Vec3::UnitZ() * kNavStretchCheckLift;
    const Vec3 from = a + lift, to = b + lift;
    if (walk) return !traceSegment(tree, mesh.pose, from, to).hit;
    const double rise = b.z() - a.z();
    if (rise > mesh.settings.stepHeight || -rise > mesh.settings.maxDrop) return false;
    const double high = std::max(from.z(), to.z());
    const Vec3 fromHigh(from.x(), from.y(), high), toHigh(to.x(), to.y(), high);
    if (high > from.z() && traceSegment(tree, mesh.pose, from, fromHigh).hit) return false;
    if (traceSegment(tree, mesh.pose, fromHigh, toHigh).hit) return false;
    return !(high > to.z() && traceSegment(tree, mesh.pose, toHigh, to).hit);
}

// The path of a corridor with risers, each stretch confirmed by swept traces (a walk on
// one polygon, or a step or drop across a riser: stretchClear). On success its points are
// appended and the result is -1; otherwise nothing is appended and the result is the
// index in c.riserLink of the riser whose crossing failed, or c.riserLink.size() when a
// walk failed.
size_t appendRiserCorridorPath(const BspTree& tree, const NavMesh& mesh, const Corridor& c, std::vector<Vec3>& points,
                               std::vector<char>& how) {
    const auto corners = pullString(c);
    // The index of the riser between portals j and j + 1.
    auto risersBefore = [&](size_t j) { return size_t(std::count(c.polygons.begin(), c.polygons.begin() + long(j), -1)); };
    // The points, each with the portal it lies on.
    std::vector<std::pair<Vec3, size_t>> at;
    for (size_t k = 0; k < corners.size(); ++k) {
        if (k > 0) {
            const Vec3& a = corners[k - 1].first;
            const Vec3& b = corners[k].first;
            for (size_t j = corners[k - 1].second + 1; j < corners[k].second; ++j) {
                const int32_t before = c.polygons[j - 1], after = c.polygons[j];
                if (before >= 0 && after >= 0 && mesh.polygons[size_t(before)].plane == mesh.polygons[size_t(after)].plane) continue;
                const auto x = crossing(c, j, a, b);
                if (!x) return before < 0 || after < 0 ? risersBefore(j - (after < 0 ? 0 : 1)) : c.riserLink.size();
                at.push_back({*x, j});
            }
        }
        at.push_back(corners[k]);
    }
    for (size_t i = 1; i < at.size(); ++i) {
        const size_t from = at[i - 1].second, to = at[i].second;
        const bool acrossRiser = to == from + 1 && c.polygons[from] < 0;
        if (samePoint(at[i - 1].first, at[i].first)) continue;
        if (!stretchClear(tree, mesh, at[i - 1].first, at[i].first, !acrossRiser))
            return acrossRiser ? risersBefore(from) : c.riserLink.size();
    }
    for (size_t i = 0; i < at.size(); ++i) {
        points.push_back(at[i].first);
        const bool acrossRiser = i + 1 < at.size() && at[i + 1].second == at[i].second + 1 && c.polygons[at[i].second] < 0;
        how.push_back(acrossRiser ? kRiserStretch : kWalkStretch);
    }
    return size_t(-1);
}

// The two portals of a step or drop the string may be pulled across: the free edge of the
// takeoff polygon that the link takes off from, kNavTakeoffInset inside that polygon, and
// the same edge kNavProbeReach outside it on the landing polygon (where the probes land),
// each point on its polygon's plane. The part of the edge used is where both lines lie
// inside their polygons, kNavCornerInset from their other edges (walls' feet). Nothing for
// a jump, or when no such part is left. Every crossing of it is confirmed by swept traces
// before it is used (appendRiserCorridorPath): the probes only found the step at points.
struct RiserPortals {
    Vec3 fromLeft, fromRight, toLeft, toRight;
};
std::optional<RiserPortals> riserPortals(const NavMesh& mesh, const NavLink& l) {
    if (l.kind != NavLinkKind::StepUp && l.kind != NavLinkKind::StepDown && l.kind != NavLinkKind::Drop) return std::nullopt;
    const NavPolygon& P = mesh.polygons[size_t(l.from)];
    const NavPolygon& Q = mesh.polygons[size_t(l.to)];
    // The free edge taken off from: kNavTakeoffInset from the takeoff point, seen from above.
    const std::pair<Vec3, Vec3>* edge = nullptr;
    Vec3 u, out;
    double length = 0.0;
    for (const auto& fe : P.freeEdges) {
        Vec3 d = fe.second - fe.first;
        d.z() = 0.0;
        const double len = d.norm();
        if (len < 1e-9) continue;
        const Vec3 dir = d / len, o(dir.y(), -dir.x(), 0.0);
        const Vec3 r = l.start - fe.first;
        const double along = r.x() * dir.x() + r.y() * dir.y(), off = r.x() * o.x() + r.y() * o.y();
        if (std::abs(off + kNavTakeoffInset) > 1e-6 || along < -1e-6 || along > len + 1e-6) continue;
        edge = &fe;
        u = dir;
        out = o;
        length = len;
        break;
    }
    if (!edge) return std::nullopt;
    const Vec3 a = edge->first;
    double lo = 0.0, hi = length;
    // Keeps the points a + u t + out offset (seen from above) kNavCornerInset inside the
    // polygon's edges, but those along (a, b).
    auto clip = [&](const NavPolygon& poly, double offset) {
        const size_t n = poly.vertices.size();
        for (size_t i = 0; i < n && lo <= hi; ++i) {
            const Vec3& v = poly.vertices[i];
            const Vec3& w = poly.vertices[(i + 1) % n];
            const double ex = w.x() - v.x(), ey = w.y() - v.y(), el = std::hypot(ex, ey);
            if (el < 1e-9) continue;
            auto offLine = [&](const Vec3& p) { return std::abs((p.x() - a.x()) * out.x() + (p.y() - a.y()) * out.y()); };
            if (offLine(v) < 1e-3 && offLine(w) < 1e-3) continue;
            // cross(v, w, point(t)) / el >= inset: c0 + c1 t >= inset.
            const double px = a.x() + out.x() * offset - v.x(), py = a.y() + out.y() * offset - v.y();
            const double c0 = (ex * py - ey * px) / el, c1 = (ex * u.y() - ey * u.x()) / el;
            const double need = kNavCornerInset - c0;
            if (std::abs(c1) < 1e-12) {
                if (need > 0.0) hi = lo - 1.0;
            } else if (c1 > 0.0) {
                lo = std::max(lo, need / c1);
            } else {
                hi = std::min(hi, need / c1);
            }
        }
    };
    clip(P, -kNavTakeoffInset);
    clip(Q, kNavProbeReach);
    if (hi - lo < kNavMinSharedEdge) return std::nullopt;
    auto onFrom = [&](double t) {
        Vec3 p = a + u * t - out * kNavTakeoffInset;
        p.z() = heightOnPolygon(P, p.x(), p.y());
        return p;
    };
    auto onTo = [&](double t) {
        Vec3 p = a + u * t + out * kNavProbeReach;
        p.z() = heightOnPolygon(Q, p.x(), p.y());
        return p;
    };
    return RiserPortals{onFrom(hi), onFrom(lo), onTo(hi), onTo(lo)};
}

// Where the line a + d s crosses the segment p..q seen from above: (s, t along p..q), or
// nothing when they run parallel.
std::optional<std::pair<double, double>> crossXY(const Vec3& a, const Vec3& d, const Vec3& p, const Vec3& q) {
    const Vec3 e = q - p;
    const double denominator = d.x() * e.y() - d.y() * e.x();
    if (std::abs(denominator) < 1e-12) return std::nullopt;
    const Vec3 r = p - a;
    return std::pair{(r.x() * e.y() - r.y() * e.x()) / denominator, (r.x() * d.y() - r.y() * d.x()) / denominator};
}

// The straight line from a (on polygon `polygon`) to b seen from above, followed over the
// mesh as the funnel would walk it: across shared edges (kept as far from the free edges
// as the funnel keeps its portals' ends), and across steps and drops through their riser
// portals (at most the step height up, maxDrop down). Appends to `points` the points after
// a where the line crosses onto another plane (for a riser its takeoff and its landing
// point, `riser` true at the takeoff) and b; false when the line leaves the mesh or turns
// back. Geometry only: the caller confirms the stretches with swept traces.
bool followLine(const NavMesh& mesh, int32_t polygon, const Vec3& a, const Vec3& b, std::vector<Vec3>& points,
                std::vector<char>& riser) {
    const Vec3 d(b.x() - a.x(), b.y() - a.y(), 0.0);
    if (d.norm() < 1e-9) return false;
    double s = 0.0;
    int32_t at = polygon;
    for (int guard = 0; guard < 4096; ++guard) {
        const NavPolygon& P = mesh.polygons[size_t(at)];
        // Where the line leaves the polygon (it is convex, counter-clockwise from above).
        double exit = std::numeric_limits<double>::infinity();
        const size_t n = P.vertices.size();
        for (size_t i = 0; i < n; ++i) {
            const Vec3& v = P.vertices[i];
            const Vec3& w = P.vertices[(i + 1) % n];
            const double nx = w.y() - v.y(), ny = v.x() - w.x(); // outward
            const double along = nx * d.x() + ny * d.y();
            if (along <= 1e-12) continue;
            exit = std::min(exit, (nx * (v.x() - a.x()) + ny * (v.y() - a.y())) / along);
        }
        if (exit >= 1.0 - 1e-9 && std::abs(heightOnPolygon(P, b.x(), b.y()) - b.z()) <= kNavOnPlane) { // b is on it
            points.push_back(b);
            riser.push_back(0);
            return true;
        }
        if (!(exit < 1.0 + 1e-9)) return false; // b is under or over the polygon, not on it
        exit = std::max(exit, s);
        Vec3 y = a + d * exit;
        y.z() = heightOnPolygon(P, y.x(), y.y());
        int32_t next = -1;
        int32_t triedTo = -1; // a polygon's probe links along one edge share their riser portals
        for (uint32_t k = P.firstLink; k < P.firstLink + P.linkCount && next < 0; ++k) {
            const NavLink& l = mesh.links[k];
            if (l.kind == NavLinkKind::Walk) {
                const double ex = l.end.x() - l.start.x(), ey = l.end.y() - l.start.y();
                const double rx = y.x() - l.start.x(), ry = y.y() - l.start.y();
                const double e2 = ex * ex + ey * ey, dot = rx * ex + ry * ey, off = ex * ry - ey * rx;
                // Within 10 kNavEdgeDistance of the shared edge, seen from above.
                if (e2 <= 0.0 || dot < -1e-9 || dot > e2 + 1e-9 || off * off > 1e-4 * e2) continue;
                const double length = std::sqrt(e2), t = dot / length;
                if (t < l.startInset || length - t < l.endInset)
                    continue;
                next = l.to;
                if (mesh.polygons[size_t(next)].plane != P.plane) {
                    points.push_back(y);
                    riser.push_back(0);
                }
                s = exit;
            } else if (l.kind != NavLinkKind::Jump) {
                // One of a run of probe links onto the same polygon (along one edge, they
                // share their riser portals).
                if (l.to == triedTo) continue;
                const auto r = riserPortals(mesh, l);
                triedTo = l.to;
                if (!r) continue;
                const auto up = crossXY(a, d, r->fromRight, r->fromLeft), down = crossXY(a, d, r->toRight, r->toLeft);
                if (!up || !down) continue;
                const auto [s1, t1] = *up;
                const auto [s2, t2] = *down;
                if (t1 < 0.0 || t1 > 1.0 || t2 < 0.0 || t2 > 1.0 || s1 < s - 1e-9 || s2 <= s1 || s2 > 1.0) continue;
                const Vec3 takeoff = r->fromRight + (r->fromLeft - r->fromRight) * t1;
                const Vec3 landing = r->toRight + (r->toLeft - r->toRight) * t2;
                const double rise = landing.z() - takeoff.z();
                if (rise > mesh.settings.stepHeight || -rise > mesh.settings.maxDrop) continue;
                next = l.to;
                points.push_back(takeoff);
                riser.push_back(1);
                points.push_back(landing);
                riser.push_back(0);
                s = s2;
            }
        }
        if (next < 0) return false;
        at = next;
    }
    return false;
}

// Straightening looks this many corners ahead (bounds the pass on long paths).
constexpr size_t kStraightenWindow = 8;

// Straightens a found path: from each corner it turns at, the farthest later one whose
// straight line over the mesh (followLine) is shorter than the path between them and whose
// every stretch swept traces confirm (a walk, or a step or drop across a riser:
// stretchClear), reached by trying the next turn on until one fails, replaces the corners
// between them. This shortens what the funnel cannot:
// A* enters each polygon at one point, so its chain of polygons may bend where the
// straight line would cross others.
void straighten(const BspTree& tree, const NavMesh& mesh, std::vector<Vec3>& path, std::vector<char>& how) {
    const size_t n = path.size();
    if (n < 3) return;
    // The corners the path turns at (seen from above), with its two ends.
    std::vector<size_t> turns{0};
    for (size_t k = 1; k + 1 < n; ++k) {
        const Vec3 d1(path[k].x() - path[k - 1].x(), path[k].y() - path[k - 1].y(), 0.0);
        const Vec3 d2(path[k + 1].x() - path[k].x(), path[k + 1].y() - path[k].y(), 0.0);
        const double l1 = d1.norm(), l2 = d2.norm();
        if (l1 < 1e-6 || l2 < 1e-6 || std::abs(d1.x() * d2.y() - d1.y() * d2.x()) > 1e-4 * l1 * l2 || d1.dot(d2) < 0.0)
            turns.push_back(k);
    }
    turns.push_back(n - 1);
    if (turns.size() < 3) return;
    std::vector<double> along(n, 0.0); // the path's length up to each point
    for (size_t k = 1; k < n; ++k) along[k] = along[k - 1] + (path[k] - path[k - 1]).norm();
    std::vector<Vec3> out{path[0]}, line;
    std::vector<char> outHow{how[0]};
    std::vector<char> riser;
    // The straight line from path[i] to path[j] when it is shorter and confirmed.
    auto tryLine = [&](size_t i, size_t j) {
        line.clear();
        riser.clear();
        const int32_t polygon = mesh.polygonAt(path[i]);
        if (polygon < 0 || !followLine(mesh, polygon, path[i], path[j], line, riser)) return false;
        double length = 0.0;
        Vec3 previous = path[i];
        for (const Vec3& p : line) {
            length += (p - previous).norm();
            previous = p;
        }
        return length < along[j] - along[i] - 1e-6;
    };
    auto confirmed = [&](size_t i) {
        Vec3 previous = path[i];
        bool acrossRiser = false;
        for (size_t k = 0; k < line.size(); ++k) {
            if (!samePoint(previous, line[k]) && !stretchClear(tree, mesh, previous, line[k], !acrossRiser)) return false;
            previous = line[k];
            acrossRiser = riser[k] != 0;
        }
        return true;
    };
    size_t anchor = 0; // in turns
    while (anchor + 1 < turns.size()) {
        size_t reach = anchor + 1;
        std::vector<Vec3> best;
        std::vector<char> bestHow;
        // The turns after the next, on until one's line fails. (Trying every turn in the
        // window, farthest first, made id_e1m1's paths 0.01% shorter and found paths on
        // librequake_e3m4 twice as slow.)
        for (size_t m = anchor + 2; m < turns.size() && m <= anchor + kStraightenWindow; ++m) {
            if (!tryLine(turns[anchor], turns[m]) || !confirmed(turns[anchor])) break;
            reach = m;
            best = line;
            bestHow.assign(riser.begin(), riser.end());
            for (char& h : bestHow) h = h ? kRiserStretch : kWalkStretch;
        }
        if (best.empty()) {
            for (size_t k = turns[anchor] + 1; k <= turns[reach]; ++k) {
                out.push_back(path[k]);
                outHow.push_back(how[k]);
            }
        } else {
            outHow.back() = kWalkStretch;
            out.insert(out.end(), best.begin(), best.end());
            outHow.insert(outHow.end(), bestHow.begin(), bestHow.end());
            outHow.back() = how[turns[reach]];
        }
        anchor = reach;
    }
    path = std::move(out);
    how = std::move(outHow);
}

// Over a step or drop, keeps only the riser's lower point (the landing going down, the
// takeoff going up): the stretch from the floor before the riser to it, or from it to the
// floor after, is then one step or drop (up by at most the step height at the lower end,
// across at the higher end's height, down), which swept traces must confirm. Going down a
// flight of stairs the path then runs from landing to landing, as down a ramp, instead of
// along each tread and straight down each riser.
void lowerRisers(const BspTree& tree, const NavMesh& mesh, std::vector<Vec3>& points, std::vector<char>& how) {
    const size_t n = points.size();
    std::vector<Vec3> out{points[0]};
    std::vector<char> outHow{how[0]};
    for (size_t k = 1; k < n; ++k) {
        if (k + 1 < n) {
            // Down: k takes off, walked to from the last point kept.
            if (how[k] == kRiserStretch && points[k].z() > points[k + 1].z() && outHow.back() == kWalkStretch &&
                stretchClear(tree, mesh, out.back(), points[k + 1], false)) {
                outHow.back() = kStepStretch;
                continue;
            }
            // Up: k is landed on, and walked on from.
            if (how[k - 1] == kRiserStretch && points[k].z() > points[k - 1].z() && how[k] == kWalkStretch &&
                samePoint(out.back(), points[k - 1]) && stretchClear(tree, mesh, points[k - 1], points[k + 1], false)) {
                outHow.back() = kStepStretch;
                continue;
            }
        }
        out.push_back(points[k]);
        outHow.push_back(how[k]);
    }
    points = std::move(out);
    how = std::move(outHow);
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
    return findPath(tree, mesh, from, to, NavLinkFilter());
}

PathEnds landPathEnds(const BspTree& tree, const NavMesh& mesh, const Vec3& from, const Vec3& to) {
    PathEnds ends;
    const Vec3 raisedFrom = outOfTheFloor(tree, mesh.pose, from), raisedTo = outOfTheFloor(tree, mesh.pose, to);
    ends.start = dropToFloor(tree, mesh, raisedFrom);
    ends.goal = dropToFloor(tree, mesh, raisedTo);
    if (ends.start.polygon < 0)
        ends.miss = tree.isSolid(raisedFrom, mesh.pose) ? NavPathMiss::StartInSolid : NavPathMiss::StartOffGround;
    else if (ends.goal.polygon < 0)
        ends.miss = tree.isSolid(raisedTo, mesh.pose) ? NavPathMiss::GoalInSolid : NavPathMiss::GoalOffGround;
    return ends;
}

NavPath findPath(const BspTree& tree, const NavMesh& mesh, const Vec3& from, const Vec3& to, const NavLinkFilter& usable) {
    NavPath out;
    auto missed = [&](NavPathMiss why) {
        out.miss = why;
        return out;
    };
    const PathEnds ends = landPathEnds(tree, mesh, from, to);
    if (ends.miss != NavPathMiss::None) return missed(ends.miss);
    const Landing& start = ends.start;
    const Landing& goal = ends.goal;
    if (!usable && !componentReached(mesh, mesh.polygons[size_t(start.polygon)].component, mesh.polygons[size_t(goal.polygon)].component))
        return missed(NavPathMiss::NotReached);
    const auto links = searchLinks(mesh, start.polygon, start.point, goal.polygon, goal.point, usable);
    if (!links) return missed(NavPathMiss::NotReached);
    out.found = true;
    const std::vector<int32_t>& path = *links;
    std::vector<char> how; // per point of out.points, how the stretch after it is travelled
    // Steps and drops the string may be pulled across, per link.
    std::vector<std::optional<RiserPortals>> risers(path.size());
    for (size_t i = 0; i < path.size(); ++i) risers[i] = riserPortals(mesh, mesh.links[size_t(path[i])]);
    // The path from `at` on polygon `polygon` over links [first, last) (walks and steps or
    // drops with riser portals) to `end`: one corridor pulled tight across all of them; when
    // a riser's crossing fails its check, split there (taking off and landing at the
    // step's probe points), when a walk fails, at every riser.
    auto walkOver = [&](auto&& self, const Vec3& at, int32_t polygon, size_t first, size_t last, const Vec3& end) -> void {
        Corridor c{{at}, {at}, {polygon}, {}};
        for (size_t i = first; i < last; ++i) {
            const NavLink& l = mesh.links[size_t(path[i])];
            if (l.kind == NavLinkKind::Walk) {
                // Walking from l.from across to l.to, l.end is on the left. Its ends move
                // in, away from the free edges they lie on.
                Vec3 left = l.end, right = l.start;
                const double length = (left - right).norm();
                const double leftIn = l.endInset, rightIn = l.startInset;
                if (leftIn + rightIn < length) {
                    const Vec3 along = (left - right) / length;
                    left -= along * leftIn;
                    right += along * rightIn;
                } else {
                    left = right = right + (left - right) * (rightIn / (leftIn + rightIn));
                }
                c.left.push_back(left);
                c.right.push_back(right);
            } else {
                const RiserPortals& r = *risers[i];
                c.left.push_back(r.fromLeft);
                c.right.push_back(r.fromRight);
                c.polygons.push_back(-1);
                c.left.push_back(r.toLeft);
                c.right.push_back(r.toRight);
                c.riserLink.push_back(i);
            }
            c.polygons.push_back(l.to);
        }
        c.left.push_back(end);
        c.right.push_back(end);
        if (c.riserLink.empty()) {
            appendCorridorPath(tree, mesh, c, out.points);
            how.resize(out.points.size(), kWalkStretch);
            return;
        }
        const size_t failed = appendRiserCorridorPath(tree, mesh, c, out.points, how);
        if (failed == size_t(-1)) return;
        std::vector<size_t> splits;
        if (failed < c.riserLink.size()) splits = {c.riserLink[failed]};
        else splits = c.riserLink;
        Vec3 from = at;
        int32_t on = polygon;
        size_t begin = first;
        for (size_t g : splits) {
            const NavLink& l = mesh.links[size_t(path[g])];
            self(self, from, on, begin, g, l.start);
            how.back() = kRiserStretch;
            from = l.end;
            on = l.to;
            begin = g + 1;
        }
        self(self, from, on, begin, last, end);
    };
    // Jumps, and steps and drops without riser portals, take off and land at their points.
    Vec3 at = start.point;
    int32_t on = start.polygon;
    size_t begin = 0;
    for (size_t i = 0; i < path.size(); ++i) {
        const NavLink& l = mesh.links[size_t(path[i])];
        if (l.kind == NavLinkKind::Walk || risers[i]) continue;
        walkOver(walkOver, at, on, begin, i, l.start);
        how.back() = l.kind == NavLinkKind::Jump ? kJumpStretch : kRiserStretch;
        at = l.end;
        on = l.to;
        begin = i + 1;
    }
    walkOver(walkOver, at, on, begin, path.size(), goal.point);
    // One point for a corner reached twice (a corridor ending where the next begins).
    std::vector<Vec3> points;
    std::vector<char> stretches;
    for (size_t i = 0; i < out.points.size(); ++i) {
        if (points.empty() || !samePoint(points.back(), out.points[i])) {
            points.push_back(out.points[i]);
            stretches.push_back(how[i]);
        } else {
            stretches.back() = how[i];
        }
    }
    straighten(tree, mesh, points, stretches);
    lowerRisers(tree, mesh, points, stretches);
    out.points = std::move(points);
    for (size_t i = 1; i < out.points.size(); ++i) {
        out.length += (out.points[i] - out.points[i - 1]).norm();
        const double rise = out.points[i].z() - out.points[i - 1].z();
        NavLinkKind kind = NavLinkKind::Walk;
        if (stretches[i - 1] == kJumpStretch) kind = NavLinkKind::Jump;
        else if (stretches[i - 1] != kWalkStretch)
            kind = rise >= 0.0 ? NavLinkKind::StepUp : -rise <= mesh.settings.stepHeight ? NavLinkKind::StepDown : NavLinkKind::Drop;
        out.stretches.push_back(kind);
    }
    return out;
}

} // namespace shallot
