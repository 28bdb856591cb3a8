#include "nav/cut_at_boxes.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace shallot {

namespace {

using Outline = std::vector<Vec3>;

// A vertical cut: the plane where coordinate `axis` (0: x, 1: y) is `value`.
struct Cut {
    int axis = 0;
    double value = 0.0;
};

// The parts of a convex outline below and above the cut (either may come out empty).
void split(const Outline& p, const Cut& c, Outline& below, Outline& above) {
    const size_t n = p.size();
    for (size_t i = 0; i < n; ++i) {
        const Vec3& a = p[i];
        const Vec3& b = p[(i + 1) % n];
        const double da = a[c.axis] - c.value, db = b[c.axis] - c.value;
        if (da <= 0.0) below.push_back(a);
        if (da >= 0.0) above.push_back(a);
        if ((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0)) {
            Vec3 x = a + (b - a) * (da / (da - db));
            x[c.axis] = c.value;
            below.push_back(x);
            above.push_back(x);
        }
    }
    if (below.size() < 3) below.clear();
    if (above.size() < 3) above.clear();
}

bool crosses(const Outline& p, const Cut& c) {
    double lo = p[0][c.axis], hi = lo;
    for (const Vec3& v : p) {
        lo = std::min(lo, v[c.axis]);
        hi = std::max(hi, v[c.axis]);
    }
    return lo < c.value - kNavCutSliver && hi > c.value + kNavCutSliver;
}

// Whether the box reaches into the outline seen from above (more than a sliver).
bool reaches(const Outline& p, const Aabb& box) {
    Aabb b;
    for (const Vec3& v : p) b.add(v);
    return b.mins.x() < box.maxs.x() - kNavCutSliver && b.maxs.x() > box.mins.x() + kNavCutSliver &&
           b.mins.y() < box.maxs.y() - kNavCutSliver && b.maxs.y() > box.mins.y() + kNavCutSliver;
}

double area3(const Outline& p) {
    Vec3 sum = Vec3::Zero();
    for (size_t i = 1; i + 1 < p.size(); ++i) sum += (p[i] - p[0]).cross(p[i + 1] - p[0]);
    return 0.5 * sum.norm();
}

// The parameters in (0, 1) where the segment a..b crosses the cuts, with 0 and 1, sorted.
std::vector<double> crossings(const Vec3& a, const Vec3& b, const std::vector<Cut>& cuts) {
    std::vector<double> ts{0.0, 1.0};
    for (const Cut& c : cuts) {
        const double da = a[c.axis] - c.value, db = b[c.axis] - c.value;
        if ((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0)) ts.push_back(da / (da - db));
    }
    std::sort(ts.begin(), ts.end());
    return ts;
}

} // namespace

NavMesh cutAtBoxes(const NavMesh& mesh, const std::vector<Aabb>& boxes) {
    NavMesh out;
    out.pose = mesh.pose;
    out.settings = mesh.settings;
    out.surfaceCount = mesh.surfaceCount;
    out.componentCount = mesh.componentCount;
    out.componentDrops = mesh.componentDrops;
    // Per polygon: its cuts and its pieces' indices in out.polygons.
    std::vector<std::vector<Cut>> cutsOf(mesh.polygons.size());
    std::vector<std::vector<int32_t>> piecesOf(mesh.polygons.size());
    for (size_t p = 0; p < mesh.polygons.size(); ++p) {
        const NavPolygon& polygon = mesh.polygons[p];
        std::vector<Outline> pieces{polygon.vertices};
        for (const Aabb& box : boxes) {
            if (!box.overlaps(polygon.bounds)) continue;
            for (const Cut c : {Cut{0, box.mins.x()}, Cut{0, box.maxs.x()}, Cut{1, box.mins.y()}, Cut{1, box.maxs.y()}}) {
                std::vector<Outline> next;
                bool used = false;
                for (const Outline& piece : pieces) {
                    // Only pieces the box reaches are cut (a cut does not run across the
                    // whole polygon: thousands of boxes on one floor stay local).
                    if (!crosses(piece, c) || !reaches(piece, box)) {
                        next.push_back(piece);
                        continue;
                    }
                    Outline below, above;
                    split(piece, c, below, above);
                    for (Outline* part : {&below, &above})
                        if (!part->empty()) next.push_back(std::move(*part));
                    used = true;
                }
                if (used) cutsOf[p].push_back(c);
                pieces = std::move(next);
            }
        }
        for (Outline& piece : pieces) {
            NavPolygon q;
            q.normal = polygon.normal;
            q.plane = polygon.plane;
            q.leaf = polygon.leaf;
            q.surface = polygon.surface;
            q.component = polygon.component;
            q.area = pieces.size() == 1 ? polygon.area : area3(piece);
            q.vertices = std::move(piece);
            for (const Vec3& v : q.vertices) q.bounds.add(v);
            piecesOf[p].push_back(int32_t(out.polygons.size()));
            out.polygons.push_back(std::move(q));
        }
    }
    // The piece of polygon p holding point x (seen from above), else its nearest by middle.
    auto pieceAt = [&](size_t p, const Vec3& x) {
        const std::vector<int32_t>& pieces = piecesOf[p];
        if (pieces.size() == 1) return pieces[0];
        int32_t best = pieces[0];
        double bestDistance = std::numeric_limits<double>::infinity();
        for (const int32_t q : pieces) {
            const NavPolygon& piece = out.polygons[size_t(q)];
            if (containsXY(piece.vertices, x, kNavEdgeDistance)) return q;
            const double d = (0.5 * (piece.bounds.mins + piece.bounds.maxs) - x).head<2>().norm();
            if (d < bestDistance) {
                bestDistance = d;
                best = q;
            }
        }
        return best;
    };
    for (size_t p = 0; p < mesh.polygons.size(); ++p)
        for (const auto& [a, b] : mesh.polygons[p].freeEdges) {
            const std::vector<double> ts = crossings(a, b, cutsOf[p]);
            for (size_t i = 0; i + 1 < ts.size(); ++i) {
                const Vec3 s = a + (b - a) * ts[i], e = a + (b - a) * ts[i + 1];
                if (ts[i + 1] > ts[i]) out.polygons[size_t(pieceAt(p, 0.5 * (s + e)))].freeEdges.push_back({s, e});
            }
        }
    for (const NavLink& l : mesh.links) {
        const size_t from = size_t(l.from), to = size_t(l.to);
        if (l.kind != NavLinkKind::Walk) {
            NavLink m = l;
            m.from = pieceAt(from, l.start);
            m.to = pieceAt(to, l.end);
            out.links.push_back(m);
            continue;
        }
        std::vector<Cut> cuts = cutsOf[from];
        cuts.insert(cuts.end(), cutsOf[to].begin(), cutsOf[to].end());
        const std::vector<double> ts = crossings(l.start, l.end, cuts);
        for (size_t i = 0; i + 1 < ts.size(); ++i) {
            const Vec3 s = l.start + (l.end - l.start) * ts[i], e = l.start + (l.end - l.start) * ts[i + 1];
            if ((e - s).norm() < kNavMinSharedEdge) continue;
            const Vec3 middle = 0.5 * (s + e);
            out.links.push_back({pieceAt(from, middle), pieceAt(to, middle), NavLinkKind::Walk, s, e, i == 0 ? l.startInset : 0.0,
                                 i + 2 == ts.size() ? l.endInset : 0.0});
        }
    }
    // Pieces of one polygon: walks across the cuts between them, kNavCornerInset in from
    // an end on one of the polygon's free edges.
    auto onFreeEdge = [&](size_t p, const Vec3& x) {
        for (const auto& [a, b] : mesh.polygons[p].freeEdges) {
            const Vec3 ab = b - a;
            const double t = ab.squaredNorm() > 0.0 ? std::clamp((x - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0) : 0.0;
            if ((a + ab * t - x).norm() <= 10 * kNavEdgeDistance) return true;
        }
        return false;
    };
    for (size_t p = 0; p < mesh.polygons.size(); ++p) {
        if (piecesOf[p].size() < 2) continue;
        // The pieces' edges along each cut line, then the overlapping pairs of each line.
        std::map<std::pair<int, double>, std::vector<std::pair<int32_t, size_t>>> onLine;
        for (const int32_t q : piecesOf[p]) {
            const Outline& A = out.polygons[size_t(q)].vertices;
            for (size_t e = 0; e < A.size(); ++e)
                for (const Cut& c : cutsOf[p]) {
                    const Vec3& u = A[e];
                    const Vec3& w = A[(e + 1) % A.size()];
                    if (std::abs(u[c.axis] - c.value) <= kNavEdgeDistance && std::abs(w[c.axis] - c.value) <= kNavEdgeDistance) {
                        onLine[{c.axis, c.value}].push_back({q, e});
                        break;
                    }
                }
        }
        for (const auto& [line, edges] : onLine) {
            const int along = 1 - line.first;
            for (size_t i = 0; i < edges.size(); ++i)
                for (size_t j = i + 1; j < edges.size(); ++j) {
                    const auto [qa, ea] = edges[i];
                    const auto [qb, eb] = edges[j];
                    if (qa == qb) continue;
                    const Outline& A = out.polygons[size_t(qa)].vertices;
                    const Outline& B = out.polygons[size_t(qb)].vertices;
                    const Vec3& u = A[ea];
                    const Vec3& w = A[(ea + 1) % A.size()];
                    const Vec3& x = B[eb];
                    const Vec3& y = B[(eb + 1) % B.size()];
                    // The overlap of u..w and x..y along the cut, as parameters of u..w.
                    const double du = w[along] - u[along];
                    if (std::abs(du) < kNavEdgeDistance) continue;
                    double t0 = (x[along] - u[along]) / du, t1 = (y[along] - u[along]) / du;
                    if (t0 > t1) std::swap(t0, t1);
                    t0 = std::max(t0, 0.0);
                    t1 = std::min(t1, 1.0);
                    const Vec3 s = u + (w - u) * t0, e = u + (w - u) * t1;
                    if (t1 <= t0 || (e - s).norm() < kNavMinSharedEdge) continue;
                    const double sIn = onFreeEdge(p, s) ? kNavCornerInset : 0.0, eIn = onFreeEdge(p, e) ? kNavCornerInset : 0.0;
                    out.links.push_back({qa, qb, NavLinkKind::Walk, s, e, sIn, eIn});
                    out.links.push_back({qb, qa, NavLinkKind::Walk, e, s, eIn, sIn});
                }
        }
    }
    std::stable_sort(out.links.begin(), out.links.end(), [](const NavLink& a, const NavLink& b) { return a.from < b.from; });
    for (size_t k = 0; k < out.links.size(); ++k) {
        NavPolygon& q = out.polygons[size_t(out.links[k].from)];
        if (q.linkCount == 0) q.firstLink = uint32_t(k);
        ++q.linkCount;
    }
    out.indexPolygons();
    return out;
}

} // namespace shallot
