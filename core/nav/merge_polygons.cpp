#include "nav/merge_polygons.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <numeric>

namespace shallot {

namespace {

bool lessXYZ(const Vec3& a, const Vec3& b) {
    if (a.x() != b.x()) return a.x() < b.x();
    if (a.y() != b.y()) return a.y() < b.y();
    return a.z() < b.z();
}

// The polygons in an order given by their vertices alone: each read from its smallest
// vertex on, then compared as sequences.
std::vector<int32_t> geometricOrder(const std::vector<NavPolygon>& polygons) {
    struct Key {
        Vec3 smallest;
        size_t first; // its index in the polygon's vertices
    };
    const auto less = [](const Vec3& a, const Vec3& b) { return lessXYZ(a, b); };
    std::vector<Key> key(polygons.size());
    for (size_t i = 0; i < polygons.size(); ++i) {
        const auto& v = polygons[i].vertices;
        const size_t first = size_t(std::min_element(v.begin(), v.end(), less) - v.begin());
        key[i] = {v[first], first};
    }
    std::vector<int32_t> order(polygons.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        const Key& ka = key[size_t(a)];
        const Key& kb = key[size_t(b)];
        if (lessXYZ(ka.smallest, kb.smallest)) return true;
        if (lessXYZ(kb.smallest, ka.smallest)) return false;
        const auto& va = polygons[size_t(a)].vertices;
        const auto& vb = polygons[size_t(b)].vertices;
        for (size_t k = 1; k < std::min(va.size(), vb.size()); ++k) {
            const Vec3& x = va[(ka.first + k) % va.size()];
            const Vec3& y = vb[(kb.first + k) % vb.size()];
            if (lessXYZ(x, y)) return true;
            if (lessXYZ(y, x)) return false;
        }
        if (va.size() != vb.size()) return va.size() < vb.size();
        return a < b;
    });
    return order;
}

// The convex hull seen from above of `points` (overwritten by it: counter-clockwise, from
// its smallest point, collinear points left out).
void convexHullXY(std::vector<Vec3>& points, std::vector<Vec3>& hull) {
    std::sort(points.begin(), points.end(), [](const Vec3& a, const Vec3& b) { return lessXYZ(a, b); });
    hull.clear();
    for (int pass = 0; pass < 2; ++pass) { // the lower chain, then the upper
        const size_t base = hull.size();
        for (size_t k = 0; k < points.size(); ++k) {
            const Vec3& p = pass == 0 ? points[k] : points[points.size() - 1 - k];
            while (hull.size() >= base + 2 && turnXY(hull[hull.size() - 2], hull.back(), p) <= 0.0) hull.pop_back();
            hull.push_back(p);
        }
        hull.pop_back(); // the chain's last point starts the other
    }
}

// Whether the union of convex polygons a and b (counter-clockwise seen from above), which
// touch along the line through s and t (one on either side of it), is convex: when
// every vertex of each lies within kNavMergeSlack inside every edge of the other but those
// along that line. (Then the half-planes of those edges hold both, and on either side of
// the line they cut out exactly the polygon on that side: their intersection is the union.)
bool unionConvex(const std::vector<Vec3>& a, const std::vector<Vec3>& b, const Vec3& s, const Vec3& t) {
    const Vec3 line = t - s;
    const double lineLength = std::sqrt(line.x() * line.x() + line.y() * line.y());
    auto offLine = [&](const Vec3& p) { return std::abs(turnXY(s, t, p)) / lineLength; };
    auto holds = [&](const std::vector<Vec3>& outline, const std::vector<Vec3>& other) {
        for (size_t i = 0; i < outline.size(); ++i) {
            const Vec3& v = outline[i];
            const Vec3& w = outline[(i + 1) % outline.size()];
            if (offLine(v) <= kNavEdgeDistance && offLine(w) <= kNavEdgeDistance) continue;
            const double length = std::sqrt((w.x() - v.x()) * (w.x() - v.x()) + (w.y() - v.y()) * (w.y() - v.y()));
            if (length <= 0.0) continue;
            for (const Vec3& p : other)
                if (turnXY(v, w, p) < -kNavMergeSlack * length) return false;
        }
        return true;
    };
    return lineLength > 0.0 && holds(a, b) && holds(b, a);
}

// Whether segment c..d continues a..b: on its line (within kNavEdgeDistance), going the
// same way, starting where it ends.
bool continues(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    if ((c - b).norm() > kNavEdgeDistance) return false;
    const Vec3 u = (b - a).normalized();
    const Vec3 r = d - a;
    return (d - c).dot(u) > 0.0 && (r - u * r.dot(u)).norm() <= kNavEdgeDistance;
}

// Joins segments that continue one another: `items` keeps the first of each run, `join(i, j)`
// extends item i over item j, which follows it.
template <class Start, class End, class Join>
void joinRuns(std::vector<size_t>& items, Start start, End end, Join join) {
    const size_t n = items.size();
    std::vector<int> next(n, -1);
    std::vector<bool> follows(n, false);
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n && next[i] < 0; ++j)
            if (i != j && !follows[j] && continues(start(items[i]), end(items[i]), start(items[j]), end(items[j]))) {
                next[i] = int(j);
                follows[j] = true;
            }
    std::vector<size_t> heads;
    for (size_t i = 0; i < n; ++i) {
        if (follows[i]) continue;
        for (int j = next[i]; j >= 0; j = next[size_t(j)]) join(items[i], items[size_t(j)]);
        heads.push_back(items[i]);
    }
    items = std::move(heads);
}

} // namespace

void mergeCoplanarPolygons(NavMesh& mesh) {
    const size_t n = mesh.polygons.size();
    const std::vector<int32_t> order = geometricOrder(mesh.polygons);
    std::vector<int32_t> rank(n);
    for (size_t r = 0; r < n; ++r) rank[size_t(order[r])] = int32_t(r);

    // The pairs that may merge, by rank: coplanar, joined by a walk (its edge kept).
    struct Pair {
        int32_t a, b;
        Vec3 start, end;
    };
    std::vector<Pair> pairs;
    for (const NavLink& l : mesh.links) {
        if (l.kind != NavLinkKind::Walk) continue;
        if (mesh.polygons[size_t(l.from)].plane != mesh.polygons[size_t(l.to)].plane) continue;
        const int32_t a = rank[size_t(l.from)], b = rank[size_t(l.to)];
        if (a < b) pairs.push_back({a, b, l.start, l.end});
    }
    std::sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) { return std::pair(x.a, x.b) < std::pair(y.a, y.b); });
    pairs.erase(std::unique(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) { return x.a == y.a && x.b == y.b; }),
                pairs.end());

    // Merged groups by rank, each with its outline (the hull of its polygons).
    std::vector<int32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int32_t i) {
        while (parent[size_t(i)] != i) i = parent[size_t(i)] = parent[size_t(parent[size_t(i)])];
        return i;
    };
    std::vector<std::vector<Vec3>> outline(n);
    for (size_t r = 0; r < n; ++r) outline[r] = mesh.polygons[size_t(order[r])].vertices;
    std::vector<Vec3> points, hull;
    // Per pair, the two groups it was last found not to merge as (each root and how many
    // merges it had taken): tried again only once either has grown.
    std::vector<uint32_t> grown(n, 0);
    std::vector<std::array<uint32_t, 4>> refused(pairs.size(), {UINT32_MAX, 0, 0, 0});
    for (bool merged = true; merged;) { // until a pass merges nothing (a merge may make another convex)
        merged = false;
        for (size_t k = 0; k < pairs.size(); ++k) {
            const Pair& pair = pairs[k];
            const int32_t ra = find(pair.a), rb = find(pair.b);
            if (ra == rb) continue;
            const std::array<uint32_t, 4> as{uint32_t(ra), uint32_t(rb), grown[size_t(ra)], grown[size_t(rb)]};
            if (refused[k] == as) continue;
            if (!unionConvex(outline[size_t(ra)], outline[size_t(rb)], pair.start, pair.end)) {
                refused[k] = as;
                continue;
            }
            points = outline[size_t(ra)];
            points.insert(points.end(), outline[size_t(rb)].begin(), outline[size_t(rb)].end());
            convexHullXY(points, hull);
            const int32_t root = std::min(ra, rb), other = std::max(ra, rb);
            parent[size_t(other)] = root;
            ++grown[size_t(root)];
            outline[size_t(root)] = hull;
            outline[size_t(other)].clear();
            merged = true;
        }
    }

    // The merged polygons, in rank order of their first polygon.
    std::vector<int32_t> index(n, -1); // by rank of a group's root
    std::vector<NavPolygon> polygons;
    std::vector<int32_t> newOf(n); // by old polygon index
    for (size_t r = 0; r < n; ++r) {
        const int32_t root = find(int32_t(r));
        const NavPolygon& old = mesh.polygons[size_t(order[r])];
        if (index[size_t(root)] < 0) {
            index[size_t(root)] = int32_t(polygons.size());
            NavPolygon p = old;
            p.vertices = std::move(outline[size_t(root)]); // its own outline when not merged
            p.bounds = Aabb{};
            for (const Vec3& v : p.vertices) p.bounds.add(v);
            polygons.push_back(std::move(p));
        } else {
            NavPolygon& p = polygons[size_t(index[size_t(root)])];
            p.area += old.area;
            p.freeEdges.insert(p.freeEdges.end(), old.freeEdges.begin(), old.freeEdges.end());
        }
        newOf[size_t(order[r])] = index[size_t(root)];
    }
    for (NavPolygon& p : polygons) {
        std::vector<size_t> edges(p.freeEdges.size());
        std::iota(edges.begin(), edges.end(), 0);
        auto& fe = p.freeEdges;
        joinRuns(
            edges, [&](size_t i) { return fe[i].first; }, [&](size_t i) { return fe[i].second; },
            [&](size_t i, size_t j) { fe[i].second = fe[j].second; });
        std::vector<std::pair<Vec3, Vec3>> kept;
        for (size_t i : edges) kept.push_back(fe[i]);
        fe = std::move(kept);
    }

    // The links renumbered; walks within a merged polygon dropped, walks between the same two
    // joined where they continue one another.
    std::vector<NavLink> links;
    for (const NavLink& old : mesh.links) {
        NavLink l = old;
        l.from = newOf[size_t(old.from)];
        l.to = newOf[size_t(old.to)];
        if (l.kind == NavLinkKind::Walk && l.from == l.to) continue;
        links.push_back(l);
    }
    std::vector<size_t> walkOrder;
    for (size_t k = 0; k < links.size(); ++k)
        if (links[k].kind == NavLinkKind::Walk) walkOrder.push_back(k);
    std::stable_sort(walkOrder.begin(), walkOrder.end(), [&](size_t a, size_t b) {
        return std::pair(links[a].from, links[a].to) < std::pair(links[b].from, links[b].to);
    });
    std::vector<bool> dropped(links.size(), false);
    for (size_t i = 0; i < walkOrder.size();) {
        size_t j = i;
        while (j < walkOrder.size() && links[walkOrder[j]].from == links[walkOrder[i]].from &&
               links[walkOrder[j]].to == links[walkOrder[i]].to)
            ++j;
        if (j - i > 1) {
            std::vector<size_t> run(walkOrder.begin() + long(i), walkOrder.begin() + long(j));
            const std::vector<size_t> all = run;
            joinRuns(
                run, [&](size_t k) { return links[k].start; }, [&](size_t k) { return links[k].end; },
                [&](size_t k, size_t m) { links[k].end = links[m].end; });
            for (size_t k : all)
                if (std::find(run.begin(), run.end(), k) == run.end()) dropped[k] = true;
        }
        i = j;
    }
    mesh.links.clear();
    for (size_t k = 0; k < links.size(); ++k)
        if (!dropped[k]) mesh.links.push_back(links[k]);
    mesh.polygons = std::move(polygons);
    mesh.indexPolygons();
}

} // namespace shallot
