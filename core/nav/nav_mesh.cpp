#include "nav/nav_mesh.h"

#include "compile/stopwatch.h"
#include "nav/edge_probes.h"
#include "nav/merge_polygons.h"
#include "portal/reachability.h"
#include "query/trace.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace shallot {

namespace {

int64_t cellKey(int64_t x, int64_t y) { return (x << 32) ^ (y & 0xffffffff); }
int64_t cellOf(double v) { return int64_t(std::floor(v / NavMesh::kCellSize)); }

// Disjoint sets over polygon indices.
struct UnionFind {
    std::vector<int32_t> parent;
    explicit UnionFind(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
    int32_t find(int32_t i) {
        while (parent[size_t(i)] != i) i = parent[size_t(i)] = parent[size_t(parent[size_t(i)])];
        return i;
    }
    void join(int32_t a, int32_t b) { parent[size_t(find(a))] = find(b); }
    // Numbers the sets 0.. in order of first member; `label[i]` gets i's set.
    int32_t label(std::vector<int32_t>& out) {
        std::vector<int32_t> number(parent.size(), -1);
        int32_t count = 0;
        out.resize(parent.size());
        for (size_t i = 0; i < parent.size(); ++i) {
            int32_t& n = number[size_t(find(int32_t(i)))];
            if (n < 0) n = count++;
            out[i] = n;
        }
        return count;
    }
};

// The walkable leaf polygons of the pose, as nav polygons, and per leaf its polygons.
void collectPolygons(const BspTree& tree, int pose, const NavSettings& s, NavMesh& mesh,
                     std::vector<std::vector<int32_t>>& ofLeaf) {
    ofLeaf.assign(tree.leafCount(), {});
    const std::vector<bool> outside = s.insideOnly ? reachableFromOutside(tree, pose) : std::vector<bool>{};
    for (size_t leaf = 0; leaf < tree.leaves.size(); ++leaf) {
        if (leaf < outside.size() && outside[leaf]) continue;
        const LeafInfo& info = tree.leaves[leaf];
        for (uint32_t k = info.firstPolygon; k < info.firstPolygon + info.polygonCount && k < tree.polygons.size(); ++k) {
            const LeafPolygon& lp = tree.polygons[k];
            if (lp.pose != pose) continue;
            const Vec3& n = tree.planes[size_t(lp.plane)].normal;
            if (n.z() < s.walkableNormalZ) continue;
            NavPolygon p;
            const auto vertices = tree.polygons.vertices(k);
            p.vertices.assign(vertices.begin(), vertices.end());
            p.normal = n;
            p.plane = lp.plane;
            p.leaf = int32_t(leaf);
            for (const Vec3& v : p.vertices) p.bounds.add(v);
            p.area = polygonArea(p.vertices);
            ofLeaf[leaf].push_back(int32_t(mesh.polygons.size()));
            mesh.polygons.push_back(std::move(p));
        }
    }
}

// The part of edge (a, b) that edge (c, d) runs along, as parameters along (a, b) in
// units; empty (lo >= hi) when they are not collinear.
std::pair<double, double> sharedPart(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    const double length = (b - a).norm();
    if (length <= 0.0) return {0.0, 0.0};
    const Vec3 u = (b - a) / length;
    auto offLine = [&](const Vec3& p) { const Vec3 r = p - a; return (r - u * r.dot(u)).norm(); };
    if (offLine(c) > kNavEdgeDistance || offLine(d) > kNavEdgeDistance) return {0.0, 0.0};
    const double tc = (c - a).dot(u), td = (d - a).dot(u);
    return {std::max(0.0, std::min(tc, td)), std::min(length, std::max(tc, td))};
}

// Walk links between polygons whose edges run along each other, and which parts of each
// polygon's edges are shared (covered[polygon][edge]: intervals along the edge).
void addWalkLinks(const BspTree& tree, int pose, const std::vector<std::vector<int32_t>>& ofLeaf, NavMesh& mesh,
                  std::vector<std::vector<EdgeIntervals>>& covered) {
    // Polygons sharing an edge face into the same leaf or leaves a portal or two apart (the
    // empty wedge above a crease is seldom split more): the pairs looked at are those whose
    // bounds meet (within kNavEdgeDistance) and whose leaves have a neighbour in common or
    // are neighbours or one leaf. They are found through the xy grid, and looked at in
    // order of the first polygon, then the second (polygons are numbered in leaf order).
    // The neighbours of the leaves that have polygons (only those are asked about), sorted.
    std::vector<int32_t> slot(tree.leafCount(), -1);
    std::vector<std::vector<int32_t>> neighbours;
    for (size_t leaf = 0; leaf < ofLeaf.size(); ++leaf)
        if (!ofLeaf[leaf].empty()) {
            slot[leaf] = int32_t(neighbours.size());
            neighbours.emplace_back();
        }
    for (const Portal& p : tree.portals) {
        if (!((p.poses >> pose) & 1u)) continue;
        if (slot[size_t(p.front)] >= 0) neighbours[size_t(slot[size_t(p.front)])].push_back(p.back);
        if (slot[size_t(p.back)] >= 0) neighbours[size_t(slot[size_t(p.back)])].push_back(p.front);
    }
    for (auto& n : neighbours) {
        std::sort(n.begin(), n.end());
        n.erase(std::unique(n.begin(), n.end()), n.end());
    }
    auto near2 = [&](int32_t a, int32_t b) {
        if (a == b) return true;
        const auto& na = neighbours[size_t(slot[size_t(a)])];
        const auto& nb = neighbours[size_t(slot[size_t(b)])];
        if (std::binary_search(na.begin(), na.end(), b)) return true;
        auto i = na.begin();
        auto j = nb.begin();
        while (i != na.end() && j != nb.end()) {
            if (*i == *j) return true;
            if (*i < *j) ++i;
            else ++j;
        }
        return false;
    };
    covered.assign(mesh.polygons.size(), {});
    for (size_t i = 0; i < mesh.polygons.size(); ++i) covered[i].resize(mesh.polygons[i].vertices.size());
    std::vector<int32_t> near;
    for (size_t ia = 0; ia < mesh.polygons.size(); ++ia) {
        const NavPolygon& A = mesh.polygons[ia];
        near.clear();
        const Aabb& box = A.bounds;
        for (int64_t x = cellOf(box.mins.x() - kNavEdgeDistance); x <= cellOf(box.maxs.x() + kNavEdgeDistance); ++x)
            for (int64_t y = cellOf(box.mins.y() - kNavEdgeDistance); y <= cellOf(box.maxs.y() + kNavEdgeDistance); ++y) {
                const auto it = mesh.grid.find(cellKey(x, y));
                if (it == mesh.grid.end()) continue;
                for (int32_t ib : it->second)
                    if (size_t(ib) > ia && A.bounds.overlaps(mesh.polygons[size_t(ib)].bounds, kNavEdgeDistance) &&
                        near2(A.leaf, mesh.polygons[size_t(ib)].leaf))
                        near.push_back(ib);
            }
        std::sort(near.begin(), near.end());
        near.erase(std::unique(near.begin(), near.end()), near.end());
        for (int32_t ib : near) {
            const NavPolygon& B = mesh.polygons[size_t(ib)];
            const size_t na = A.vertices.size(), nb = B.vertices.size();
            for (size_t ea = 0; ea < na; ++ea) {
                const Vec3& a = A.vertices[ea];
                const Vec3& b = A.vertices[(ea + 1) % na];
                const Vec3 lowA = a.cwiseMin(b).array() - 2 * kNavEdgeDistance;
                const Vec3 highA = a.cwiseMax(b).array() + 2 * kNavEdgeDistance;
                for (size_t eb = 0; eb < nb; ++eb) {
                    const Vec3& c = B.vertices[eb];
                    const Vec3& d = B.vertices[(eb + 1) % nb];
                    // Edges sharing a part (a point of one within kNavEdgeDistance of the other)
                    // have boxes that meet grown by that much (twice, for rounding).
                    if ((c.cwiseMax(d).array() < lowA.array()).any() || (c.cwiseMin(d).array() > highA.array()).any()) continue;
                    const auto [lo, hi] = sharedPart(a, b, c, d);
                    if (hi - lo < kNavMinSharedEdge) continue;
                    const Vec3 u = (b - a).normalized();
                    const Vec3 s = a + u * lo, e = a + u * hi;
                    mesh.links.push_back({int32_t(ia), ib, NavLinkKind::Walk, s, e});
                    mesh.links.push_back({ib, int32_t(ia), NavLinkKind::Walk, e, s});
                    covered[ia][ea].push_back({lo, hi});
                    const auto [blo, bhi] = sharedPart(c, d, s, e);
                    covered[size_t(ib)][eb].push_back({blo, bhi});
                }
            }
        }
    }
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
            const Vec3 ab = b - a;
            const double t = ab.squaredNorm() > 0.0 ? std::clamp((at - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0) : 0.0;
            if ((a + ab * t - at).norm() > 10 * kNavEdgeDistance) continue;
            const Vec3 wall = Vec3(ab.x(), ab.y(), 0.0);
            if (wall.norm() <= 0.0) continue;
            // Moving along the shared edge by t moves away from the wall's line by t sin.
            const Vec3 w = wall.normalized();
            const double sine = std::abs(w.x() * along.y() - w.y() * along.x());
            if (sine < 1e-6) continue; // the shared edge runs along the wall
            inset = std::max(inset, kNavCornerInset / sine);
        }
    }
    return std::min(inset, kNavCornerInset / 1e-3);
}

} // namespace

const char* navLinkKindName(NavLinkKind kind) {
    switch (kind) {
    case NavLinkKind::Walk: return "walk";
    case NavLinkKind::StepUp: return "step_up";
    case NavLinkKind::StepDown: return "step_down";
    case NavLinkKind::Drop: return "drop";
    case NavLinkKind::Jump: return "jump";
    }
    return "walk";
}

void NavMesh::indexPolygons() {
    grid.clear();
    area = 0.0;
    for (size_t i = 0; i < polygons.size(); ++i) {
        const Aabb& b = polygons[i].bounds;
        for (int64_t x = cellOf(b.mins.x()); x <= cellOf(b.maxs.x()); ++x)
            for (int64_t y = cellOf(b.mins.y()); y <= cellOf(b.maxs.y()); ++y) grid[cellKey(x, y)].push_back(int32_t(i));
        area += polygons[i].area;
    }
}

size_t NavMesh::linkCount(NavLinkKind kind) const {
    return size_t(std::count_if(links.begin(), links.end(), [&](const NavLink& l) { return l.kind == kind; }));
}

bool containsXY(const std::vector<Vec3>& polygon, const Vec3& p, double margin) {
    const size_t n = polygon.size();
    for (size_t i = 0; i < n; ++i) {
        const Vec3& a = polygon[i];
        const Vec3& b = polygon[(i + 1) % n];
        const double ex = b.x() - a.x(), ey = b.y() - a.y();
        const double cross = ex * (p.y() - a.y()) - ey * (p.x() - a.x());
        if (cross < -margin * std::hypot(ex, ey)) return false;
    }
    return n >= 3;
}

double heightOnPolygon(const NavPolygon& p, double x, double y) {
    const Vec3& v = p.vertices[0];
    return v.z() - (p.normal.x() * (x - v.x()) + p.normal.y() * (y - v.y())) / p.normal.z();
}

const std::vector<int32_t>* NavMesh::polygonsNear(double x, double y) const {
    const auto it = grid.find(cellKey(cellOf(x), cellOf(y)));
    return it == grid.end() ? nullptr : &it->second;
}

int32_t NavMesh::polygonAt(const Vec3& p) const {
    const std::vector<int32_t>* near = polygonsNear(p.x(), p.y());
    if (!near) return -1;
    int32_t best = -1;
    double bestDistance = kNavOnPlane;
    for (int32_t i : *near) {
        const NavPolygon& poly = polygons[size_t(i)];
        const double distance = std::abs(poly.normal.dot(p - poly.vertices[0]));
        if (distance <= bestDistance && containsXY(poly.vertices, p, kNavEdgeDistance)) {
            best = i;
            bestDistance = distance;
        }
    }
    return best;
}

NavMesh buildNavMesh(const BspTree& tree, int pose, const NavSettings& settings, NavBuildTimes* times) {
    return buildNavMesh(tree, pose, settings, times, nullptr);
}

NavMesh buildNavMesh(const BspTree& tree, int pose, const NavSettings& settings, NavBuildTimes* times, NavProbeReuse* reuse) {
    Stopwatch clock;
    NavBuildTimes spent;
    NavMesh mesh;
    mesh.pose = pose;
    mesh.settings = settings;
    std::vector<std::vector<int32_t>> ofLeaf;
    collectPolygons(tree, pose, settings, mesh, ofLeaf);
    mesh.indexPolygons();
    spent.polygons = clock.lapMs();
    std::vector<std::vector<EdgeIntervals>> covered;
    addWalkLinks(tree, pose, ofLeaf, mesh, covered);
    spent.walks = clock.lapMs();
    addProbeLinks(tree, mesh, covered, reuse);
    spent.probes = clock.lapMs();

    // Surfaces and components (walks and steps), before the jumps, which look for
    // landings in other components.
    UnionFind surfaces(mesh.polygons.size()), components(mesh.polygons.size());
    for (const NavLink& l : mesh.links) {
        if (l.kind == NavLinkKind::Walk && mesh.polygons[size_t(l.from)].plane == mesh.polygons[size_t(l.to)].plane)
            surfaces.join(l.from, l.to);
        if (l.kind != NavLinkKind::Drop && l.kind != NavLinkKind::Jump) components.join(l.from, l.to);
    }
    std::vector<int32_t> label;
    mesh.surfaceCount = surfaces.label(label);
    for (size_t i = 0; i < label.size(); ++i) mesh.polygons[i].surface = label[i];
    mesh.componentCount = components.label(label);
    for (size_t i = 0; i < label.size(); ++i) mesh.polygons[i].component = label[i];
    spent.components = clock.lapMs();
    addJumpLinks(tree, mesh, reuse);
    spent.jumps = clock.lapMs();

    mergeCoplanarPolygons(mesh);
    spent.merging = clock.lapMs();
    for (NavLink& l : mesh.links)
        if (l.kind == NavLinkKind::Walk) {
            l.startInset = insetFromFreeEdges(mesh, l, l.start, l.end);
            l.endInset = insetFromFreeEdges(mesh, l, l.end, l.start);
        }
    // Links grouped by polygon.
    std::stable_sort(mesh.links.begin(), mesh.links.end(), [](const NavLink& a, const NavLink& b) { return a.from < b.from; });
    for (size_t k = 0; k < mesh.links.size(); ++k) {
        NavPolygon& p = mesh.polygons[size_t(mesh.links[k].from)];
        if (p.linkCount == 0) p.firstLink = uint32_t(k);
        ++p.linkCount;
    }
    mesh.componentDrops.assign(size_t(mesh.componentCount), {});
    for (const NavLink& l : mesh.links) {
        const int32_t a = mesh.polygons[size_t(l.from)].component, b = mesh.polygons[size_t(l.to)].component;
        if (a != b) mesh.componentDrops[size_t(a)].push_back(b);
    }
    for (auto& to : mesh.componentDrops) {
        std::sort(to.begin(), to.end());
        to.erase(std::unique(to.begin(), to.end()), to.end());
    }
    spent.grouping = clock.lapMs();
    if (times) *times = spent;
    return mesh;
}

Landing dropToFloor(const BspTree& tree, const NavMesh& mesh, const Vec3& from) {
    Landing out;
    const Vec3 bottom(from.x(), from.y(), tree.bounds.mins.z());
    const TraceResult r = traceSegment(tree, mesh.pose, from, bottom);
    if (r.startSolid || !r.hit) return out;
    out.landed = true;
    out.point = r.point;
    out.normal = r.normal;
    // The trace names one plane it met; where a steep plane of the expanded world runs
    // through the floor exactly at the landing point (on id_e1m1, along whole grid lines of
    // a floor), that is the one named, yet the point is on the floor: it stands where a
    // walkable polygon holds it, whatever the plane named.
    out.polygon = mesh.polygonAt(r.point);
    return out;
}

} // namespace shallot
