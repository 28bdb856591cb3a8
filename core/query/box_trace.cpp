#include "query/box_trace.h"

#include "compile/brush_expansion.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace shallot {

namespace {

constexpr uint32_t kLeafBrushes = 4;
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kPi = std::numbers::pi;

// As blocks() in world/world.h, for a box rather than a named pose: the default set.
bool blocksBox(BrushContents contents, bool isPoint) { return intersects(contents, defaultBlocking(isPoint)); }

Vec3 centre(const Aabb& b) { return 0.5 * (b.mins + b.maxs); }

uint32_t buildNode(BoxTraceWorld& w, size_t lo, size_t hi) {
    const uint32_t index = uint32_t(w.nodes.size());
    w.nodes.emplace_back();
    Aabb bounds, centres;
    for (size_t i = lo; i < hi; ++i) {
        bounds.add(w.brushes[w.order[i]].bounds);
        centres.add(centre(w.brushes[w.order[i]].bounds));
    }
    w.nodes[index].bounds = bounds;
    if (hi - lo <= kLeafBrushes) {
        w.nodes[index].first = uint32_t(lo);
        w.nodes[index].count = uint32_t(hi - lo);
        return index;
    }
    int axis;
    (centres.maxs - centres.mins).maxCoeff(&axis);
    const size_t mid = (lo + hi) / 2;
    std::nth_element(w.order.begin() + long(lo), w.order.begin() + long(mid), w.order.begin() + long(hi),
                     [&](uint32_t a, uint32_t b) {
                         return centre(w.brushes[a].bounds)[axis] < centre(w.brushes[b].bounds)[axis];
                     });
    buildNode(w, lo, mid); // at index + 1
    const uint32_t second = buildNode(w, mid, hi);
    w.nodes[index].second = second;
    return index;
}

// Does o + t D, t in [0, tmax], meet the box [lo, hi]? (Slab test.)
bool segmentMeetsBox(const Vec3& o, const Vec3& D, const Vec3& lo, const Vec3& hi, double tmax) {
    double t0 = 0.0, t1 = tmax;
    for (int a = 0; a < 3; ++a) {
        if (D[a] == 0.0) {
            if (o[a] < lo[a] || o[a] > hi[a]) return false;
            continue;
        }
        const double inv = 1.0 / D[a];
        double ta = (lo[a] - o[a]) * inv, tb = (hi[a] - o[a]) * inv;
        if (ta > tb) std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
        if (t0 > t1) return false;
    }
    return true;
}

// The box's configuration-space sweep against one brush: the parameter interval
// [enter, leave] in which o + t D is inside the expanded brush, and the plane entered.
// As in traceSegment, an end within kTraceOnPlaneEpsilon of a plane is on it, and being
// on a plane is outside (touching). enter < 0 means o is inside. Planes the whole segment
// lies in are listed instead: the segment only touches the brush, unless another brush
// closes the seam from the other side (see firstContactInSeams).
constexpr int kMaxCoplanar = 8;

struct Clip {
    bool meets = false;
    double enter = -kInfinity, leave = kInfinity;
    Vec3 normal = Vec3::Zero();
    int coplanar = 0;
    Vec3 coplanarNormals[kMaxCoplanar];
};

Clip clipBrush(const BoxTraceWorld& w, const BoxTraceBrush& b, const Pose& box, const Vec3& o, const Vec3& D) {
    Clip c;
    for (uint32_t i = b.firstPlane; i < b.firstPlane + b.planeCount; ++i) {
        const Plane& p = w.planes[i];
        const double dist = p.dist + poseSupport(box, p.normal); // expandedPlanes(geometry, box)
        const double da = p.normal.dot(o) - dist, dd = p.normal.dot(D), db = da + dd;
        const bool aOn = std::abs(da) <= kTraceOnPlaneEpsilon, bOn = std::abs(db) <= kTraceOnPlaneEpsilon;
        if (aOn && bOn) {
            if (c.coplanar == kMaxCoplanar) return {}; // not expected of a convex brush
            c.coplanarNormals[c.coplanar++] = p.normal;
            continue;
        }
        const bool aIn = da < 0.0 && !aOn, bIn = db < 0.0 && !bOn;
        if (!aIn && !bIn) return {};
        if (aIn && bIn) continue;
        if (bIn) { // entering
            const double t = aOn ? 0.0 : -da / dd;
            if (t > c.enter) {
                c.enter = t;
                c.normal = p.normal;
            }
        } else { // leaving
            c.leave = std::min(c.leave, bOn ? 1.0 : -da / dd);
        }
        if (c.enter >= c.leave) return {};
    }
    c.meets = true;
    return c;
}

// Calls visit(brush) for the brushes whose expanded bounds o + t D (t in [0, tmax]) may
// meet; tmax may shrink during the walk; visit returns false to stop.
template <class Visit>
void forEachCandidate(const BoxTraceWorld& w, const Pose& box, const Vec3& o, const Vec3& D, const double& tmax,
                      const Visit& visit) {
    if (w.nodes.empty()) return;
    // The reference points at which the box meets bounds b: [b.mins - maxs, b.maxs - mins].
    const Vec3 grow = Vec3::Constant(kTraceOnPlaneEpsilon);
    auto meets = [&](const Aabb& b) {
        return segmentMeetsBox(o, D, b.mins - box.maxs - grow, b.maxs - box.mins + grow, tmax);
    };
    uint32_t stack[64]; // the tree is balanced: depth <= log2(brushes) + 1
    size_t size = 0;
    stack[size++] = 0;
    while (size > 0) {
        const BoxTraceNode& node = w.nodes[stack[--size]];
        if (!meets(node.bounds)) continue;
        if (node.count > 0) {
            for (uint32_t i = node.first; i < node.first + node.count; ++i) {
                const BoxTraceBrush& b = w.brushes[w.order[i]];
                if (meets(b.bounds) && !visit(b)) return;
            }
            continue;
        }
        const uint32_t self = uint32_t(&node - w.nodes.data());
        stack[size++] = node.second;
        stack[size++] = self + 1;
    }
}

struct Sweep {
    bool startInside = false;
    bool hit = false;
    double t = 1.0;
    Vec3 normal = Vec3::Zero();
};

// Is every direction perpendicular to the segment (unit direction u) covered by one of
// the brushes, seen from a point of the segment inside all of them? A brush with no plane
// containing the segment covers all; one with planes m_k covers the wedge m_k . v <= 0.
// Enough to test one direction between each two consecutive wedge edges.
bool wedgesCover(const std::vector<const Clip*>& brushes, const Vec3& u) {
    if (brushes.empty()) return false;
    for (const Clip* c : brushes)
        if (c->coplanar == 0) return true;
    const Vec3 e1 = u.unitOrthogonal(), e2 = u.cross(e1);
    std::vector<double> edges;
    for (const Clip* c : brushes)
        for (int k = 0; k < c->coplanar; ++k) {
            const double a = std::atan2(c->coplanarNormals[k].dot(e2), c->coplanarNormals[k].dot(e1));
            edges.push_back(std::remainder(a + kPi / 2, 2 * kPi));
            edges.push_back(std::remainder(a - kPi / 2, 2 * kPi));
        }
    std::sort(edges.begin(), edges.end());
    for (size_t i = 0; i < edges.size(); ++i) {
        const double next = i + 1 < edges.size() ? edges[i + 1] : edges[0] + 2 * kPi;
        if (next - edges[i] < 1e-9) continue;
        const double mid = 0.5 * (edges[i] + next);
        const Vec3 v = std::cos(mid) * e1 + std::sin(mid) * e2;
        const bool covered = std::any_of(brushes.begin(), brushes.end(), [&](const Clip* c) {
            for (int k = 0; k < c->coplanar; ++k)
                if (c->coplanarNormals[k].dot(v) >= 0.0) return false;
            return true;
        });
        if (!covered) return false;
    }
    return true;
}

// The segment lies in a face plane of some brush: a point of it is solid when the brushes
// around it close every direction (the interior of their union, as the compiled trees see
// it), so a seam between two touching brushes is solid, not a gap. Contact is the first
// brush entry (or the start) after which the brushes around cover all directions.
Sweep firstContactInSeams(const std::vector<Clip>& clips, const Vec3& D) {
    Sweep s;
    const Vec3 u = D.normalized();
    std::vector<double> starts{0.0};
    for (const Clip& c : clips)
        if (c.enter >= 0.0) starts.push_back(c.enter);
    std::sort(starts.begin(), starts.end());
    std::vector<const Clip*> around;
    auto coveredAfter = [&](double t, bool strictlyBefore) {
        around.clear();
        for (const Clip& c : clips)
            if ((strictlyBefore ? c.enter < t : c.enter <= t) && c.leave > t) around.push_back(&c);
        return wedgesCover(around, u);
    };
    for (const double t : starts) {
        if (!coveredAfter(t, false)) continue;
        if (t == 0.0 && coveredAfter(0.0, true)) {
            s.startInside = true;
            return s;
        }
        s.hit = true;
        s.t = t;
        for (const Clip& c : clips)
            if (c.enter == t) s.normal = c.normal;
        return s;
    }
    return s;
}

Sweep sweep(const BoxTraceWorld& w, const Pose& box, const Vec3& o, const Vec3& D) {
    Sweep s;
    bool seams = false;
    const bool isPoint = box.isPoint();
    forEachCandidate(w, box, o, D, s.t, [&](const BoxTraceBrush& b) {
        if (!blocksBox(b.contents, isPoint)) return true;
        const Clip c = clipBrush(w, b, box, o, D);
        if (!c.meets) return true;
        if (c.coplanar > 0) { // touching on its own; decided below
            seams = true;
            return true;
        }
        if (c.enter < 0.0) {
            s.startInside = true;
            return false;
        }
        if (c.enter < s.t) {
            s.hit = true;
            s.t = c.enter;
            s.normal = c.normal;
        }
        return true;
    });
    // Rare: the segment lies exactly in a brush face. (A zero-length segment at a point on
    // a face shared by two brushes is not covered: it reads empty, the trees say solid.)
    if (!seams || s.startInside || D == Vec3::Zero()) return s;
    std::vector<Clip> clips;
    const double whole = 1.0;
    forEachCandidate(w, box, o, D, whole, [&](const BoxTraceBrush& b) {
        if (!blocksBox(b.contents, isPoint)) return true;
        Clip c = clipBrush(w, b, box, o, D);
        if (c.meets) clips.push_back(c);
        return true;
    });
    return firstContactInSeams(clips, D);
}

// Do the brushes the box is inside of cover the whole segment? (Brushes the segment lies
// on a face of are left out: allSolid does not look into seams.)
bool coversSegment(const BoxTraceWorld& w, const Pose& box, const Vec3& o, const Vec3& D) {
    const bool isPoint = box.isPoint();
    const double whole = 1.0;
    for (double reach = 0.0;;) {
        double best = reach;
        forEachCandidate(w, box, o, D, whole, [&](const BoxTraceBrush& b) {
            if (!blocksBox(b.contents, isPoint)) return true;
            const Clip c = clipBrush(w, b, box, o, D);
            if (c.meets && c.coplanar == 0 && c.enter <= reach) best = std::max(best, c.leave);
            return true;
        });
        if (best >= 1.0) return true;
        if (best <= reach) return false;
        reach = best;
    }
}

} // namespace

BoxTraceWorld BoxTraceWorld::build(const World& world) {
    BoxTraceWorld w;
    Pose point;
    point.name = "point";
    for (size_t i = 0; i < world.brushes.size(); ++i) {
        const Brush& brush = world.brushes[i];
        if (!blocksBox(brush.contents, false)) continue; // blocks no box
        BrushGeometryResult g = buildBrushGeometry(brush, world.bounds);
        if (!g.geometry) continue;
        const std::vector<Plane> planes = expandedPlanes(*g.geometry, point);
        BoxTraceBrush b;
        b.worldIndex = int32_t(i);
        b.contents = brush.contents;
        b.bounds = g.geometry->bounds;
        b.firstPlane = uint32_t(w.planes.size());
        b.planeCount = uint32_t(planes.size());
        w.planes.insert(w.planes.end(), planes.begin(), planes.end());
        w.brushes.push_back(b);
        w.geometry.push_back(std::move(*g.geometry));
    }
    for (uint32_t i = 0; i < w.brushes.size(); ++i) w.order.push_back(i);
    if (!w.brushes.empty()) buildNode(w, 0, w.brushes.size());
    return w;
}

TraceResult traceBox(const BoxTraceWorld& world, const Vec3& mins, const Vec3& maxs, const Vec3& from,
                     const Vec3& to) {
    Pose box;
    box.mins = mins;
    box.maxs = maxs;
    const Vec3 delta = to - from;
    TraceResult r;
    r.point = to;
    auto contact = [&](double t, const Vec3& normal) {
        r.hit = true;
        r.t = t;
        r.point = from + t * delta;
        r.normal = normal;
        return r;
    };
    const Sweep s = sweep(world, box, from, delta);
    if (!s.startInside) return s.hit ? contact(s.t, s.normal) : r;

    const double length = delta.norm();
    if (length > 0.0) { // the start-solid nudge, as in traceSegment
        const Vec3 nudged = from - (kStartSolidNudge / length) * delta;
        const Sweep retry = sweep(world, box, nudged, to - nudged);
        if (!retry.startInside) {
            if (!retry.hit) return r;
            const Vec3 c = nudged + retry.t * (to - nudged);
            return contact(std::clamp((c - from).dot(delta) / (length * length), 0.0, 1.0), retry.normal);
        }
    }
    r.startSolid = true;
    r.allSolid = length == 0.0 || coversSegment(world, box, from, delta);
    r.t = 0.0;
    r.point = from;
    return r;
}

} // namespace shallot
