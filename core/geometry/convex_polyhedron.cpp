#include "geometry/convex_polyhedron.h"

#include "geometry/tolerances.h"

#include <algorithm>

namespace shallot {

Aabb ConvexPolyhedron::bounds() const {
    Aabb box;
    for (const ConvexFace& f : faces)
        for (const Vec3& v : f.polygon.vertices) box.add(v);
    return box;
}

Vec3 ConvexPolyhedron::vertexCentroid() const {
    Vec3 sum = Vec3::Zero();
    size_t count = 0;
    for (const ConvexFace& f : faces) {
        for (const Vec3& v : f.polygon.vertices) sum += v;
        count += f.polygon.vertices.size();
    }
    return count ? Vec3(sum / double(count)) : sum;
}

double ConvexPolyhedron::volume() const {
    // Divergence theorem with a reference point inside, so every term is non-negative.
    const Vec3 o = vertexCentroid();
    double v = 0.0;
    for (const ConvexFace& f : faces)
        v += std::max(0.0, -f.plane.signedDistance(o)) * f.polygon.area();
    return v / 3.0;
}

double ConvexPolyhedron::clearance(const Vec3& p) const {
    double c = std::numeric_limits<double>::infinity();
    for (const ConvexFace& f : faces) c = std::min(c, -f.plane.signedDistance(p));
    return c;
}

HalfSpaceIntersection intersectHalfSpaces(const std::vector<Plane>& planes, double extent,
                                          const std::vector<int32_t>& tags) {
    HalfSpaceIntersection out;
    for (size_t i = 0; i < planes.size(); ++i) {
        // A square this large covers the plane's whole section of the cube.
        Polygon w = baseWinding(planes[i], 4.0 * extent);
        for (size_t j = 0; j < planes.size() && !w.empty(); ++j)
            if (j != i) w = clip(w, planes[j], kHullClipEpsilon);
        if (w.empty()) continue;
        for (int axis = 0; axis < 3 && !w.empty(); ++axis) {
            for (double sign : {1.0, -1.0}) {
                Plane wall;
                wall.normal = Vec3::Zero();
                wall.normal[axis] = sign;
                wall.dist = extent;
                if (classify(w, wall, 0.0) != Side::Back) {
                    out.touchesExtent = true;
                    w = clip(w, wall, 0.0);
                }
            }
        }
        if (w.empty()) continue;
        out.polyhedron.faces.push_back({planes[i], std::move(w), tags.empty() ? int32_t(i) : tags[i]});
    }
    return out;
}

ConvexPolyhedron boxPolyhedron(const Aabb& box, int32_t tag) {
    std::vector<Plane> planes;
    for (int axis = 0; axis < 3; ++axis) {
        Vec3 n = Vec3::Zero();
        n[axis] = 1.0;
        planes.push_back({n, box.maxs[axis]});
        planes.push_back({-n, -box.mins[axis]});
    }
    const double extent = std::max(box.mins.cwiseAbs().maxCoeff(), box.maxs.cwiseAbs().maxCoeff());
    ConvexPolyhedron p = intersectHalfSpaces(planes, extent, std::vector<int32_t>(6, tag)).polyhedron;
    return p;
}

SplitPolyhedron split(const ConvexPolyhedron& cell, const Plane& plane, int32_t tag, double epsilon) {
    SplitPolyhedron out;
    bool anyFront = false, anyBack = false;
    for (const ConvexFace& f : cell.faces) {
        for (const Vec3& v : f.polygon.vertices) {
            const double d = plane.signedDistance(v);
            anyFront |= d > epsilon;
            anyBack |= d < -epsilon;
        }
    }
    if (!anyFront) { out.back = cell; return out; }
    if (!anyBack) { out.front = cell; return out; }

    for (const ConvexFace& f : cell.faces) {
        SplitPolygon s = shallot::split(f.polygon, plane, epsilon);
        if (!s.front.empty()) out.front.faces.push_back({f.plane, std::move(s.front), f.tag});
        if (!s.back.empty()) out.back.faces.push_back({f.plane, std::move(s.back), f.tag});
    }
    // The cap: the splitting plane's section of the cell.
    const Aabb box = cell.bounds();
    const double extent = std::max(box.mins.cwiseAbs().maxCoeff(), box.maxs.cwiseAbs().maxCoeff());
    Polygon cap = baseWinding(plane, 4.0 * extent + 1.0);
    for (const ConvexFace& f : cell.faces) {
        cap = clip(cap, f.plane, epsilon);
        if (cap.empty()) break;
    }
    if (!cap.empty()) {
        Polygon reversed{{cap.vertices.rbegin(), cap.vertices.rend()}};
        out.back.faces.push_back({plane, std::move(cap), tag});
        out.front.faces.push_back({plane.flipped(), std::move(reversed), tag});
    }
    if (out.front.empty()) out.front.faces.clear();
    if (out.back.empty()) out.back.faces.clear();
    return out;
}

} // namespace shallot
