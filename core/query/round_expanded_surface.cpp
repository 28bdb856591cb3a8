#include "query/round_expanded_surface.h"

#include "query/round_shape_space.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace shallot {

namespace {

// Two planes are one when their normals' dot is above 1 minus this and their distances
// differ by less than kSamePlaneDistance times the brush's size: a vertical face of the
// brush comes back as the side plane through its edges.
constexpr double kSamePlaneNormal = 1e-10;
constexpr double kSamePlaneDistance = 1e-9;
// A vertical plane through an edge supports the brush when no vertex is in front of it by
// more than this times the brush's size (the vertices are rounded corners of the planes).
constexpr double kSupportTolerance = 1e-9;
// Corners of the swept polyhedron's faces closer than this times its size are one corner
// (each face's polygon computes its corners itself).
constexpr double kWeldTolerance = 1e-7;
// Arcs shorter than this (radians) are steps of a straight line (slerp's division).
constexpr double kTinyArc = 1e-9;
// A triangle whose doubled area is below this times a side squared is a line or a point
// (two corners welded apart by less than kWeldTolerance): nothing to draw.
constexpr double kFlatTriangle = 1e-12;

// The swept polyhedron: the brush (shape space) swept along the core, as its faces'
// planes, cut out of a cube that holds it.
ConvexPolyhedron sweptBrush(const BrushGeometry& brush, const RoundShapeFrame& frame, double size) {
    std::vector<Plane> planes;
    auto add = [&](const Vec3& n, double d) {
        for (const Plane& p : planes)
            if (p.normal.dot(n) > 1.0 - kSamePlaneNormal && std::abs(p.dist - d) < kSamePlaneDistance * size) return;
        planes.push_back({n, d});
    };
    for (const ConvexFace& f : brush.hull.faces) {
        if (f.polygon.vertices.empty()) continue;
        // Normals map by the inverse of the scale; the core's ends reach h |n.z| further.
        const Vec3 n = f.plane.normal.cwiseQuotient(frame.scale).normalized();
        add(n, n.dot(frame.toShape(f.polygon.vertices.front())) + frame.halfCore * std::abs(n.z()));
    }
    if (frame.halfCore > 0.0) {
        for (const auto& [a, b] : brush.edges) {
            const Vec3 as = frame.toShape(a), bs = frame.toShape(b);
            const Vec3 across = (bs - as).cross(Vec3::UnitZ());
            if (across.norm() <= kVerticalEdgeSine * (bs - as).norm()) continue;
            for (const double sign : {1.0, -1.0}) {
                const Vec3 n = sign * across.normalized();
                const double d = n.dot(as);
                const bool supports = std::all_of(brush.vertices.begin(), brush.vertices.end(), [&](const Vec3& v) {
                    return n.dot(frame.toShape(v)) - d <= kSupportTolerance * size;
                });
                if (supports) add(n, d);
            }
        }
    }
    const HalfSpaceIntersection swept = intersectHalfSpaces(planes, 2.0 * (size + frame.halfCore) + 1.0);
    return swept.touchesExtent ? ConvexPolyhedron{} : swept.polyhedron;
}

class Tessellation {
public:
    Tessellation(const RoundShapeFrame& frame, double step, std::vector<RoundSurfaceVertex>& out)
        : frame_(frame), step_(step), out_(out) {}

    // Steps along the arc between two unit normals.
    int segments(const Vec3& a, const Vec3& b) const {
        const double angle = std::atan2(a.cross(b).norm(), a.dot(b));
        return std::max(1, int(std::ceil(angle / step_)));
    }

    // Point l of k along the arc from normals[fa] to normals[fb] (even steps), always
    // computed in one order of the faces, so that the edge's patch and its two corners'
    // patches make the very same points.
    Vec3 arc(const std::vector<Vec3>& normals, int fa, int fb, int l, int k) const {
        if (fa > fb) {
            std::swap(fa, fb);
            l = k - l;
        }
        return slerp(normals[size_t(fa)], normals[size_t(fb)], l, k);
    }

    // Step l of k along the great arc from unit a to unit b (not opposite), a and b exactly
    // at the ends.
    static Vec3 slerp(const Vec3& a, const Vec3& b, int l, int k) {
        if (l == 0) return a;
        if (l == k) return b;
        const double angle = std::atan2(a.cross(b).norm(), a.dot(b)), t = double(l) / double(k);
        if (angle < kTinyArc) return ((1.0 - t) * a + t * b).normalized();
        return (std::sin((1.0 - t) * angle) * a + std::sin(t * angle) * b).normalized();
    }

    // The surface point of the sphere around core point `at` in direction `dir` (both in
    // shape space, where the triangles are oriented: the scaling back to the world keeps
    // their orientation, and a long ellipsoid's sheared triangles would hide it).
    struct Point {
        Vec3 position, dir;
    };
    Point vertex(const Vec3& at, const Vec3& dir) const { return {at + frame_.radius * dir, dir}; }

    // Facing out (along the directions); a triangle that is a point or a line is left out.
    void triangle(const Point& a, Point b, Point c) {
        const Vec3 cross = (b.position - a.position).cross(c.position - a.position);
        if (cross.norm() <= kFlatTriangle * (b.position - a.position).squaredNorm()) return;
        if (cross.dot(a.dir + b.dir + c.dir) < 0.0) std::swap(b, c);
        for (const Point* p : {&a, static_cast<const Point*>(&b), static_cast<const Point*>(&c)})
            out_.push_back({frame_.toWorld(p->position), frame_.normalToWorld(p->dir)});
    }

private:
    const RoundShapeFrame& frame_;
    double step_;
    std::vector<RoundSurfaceVertex>& out_;
};

} // namespace

void appendRoundExpandedSurface(const BrushGeometry& brush, const PoseShape& shape, double step,
                                std::vector<RoundSurfaceVertex>& out) {
    if (!shape.isRound() || !poseShapeProblem(shape).empty() || brush.hull.empty() || !(step > 0.0)) return;
    const RoundShapeFrame frame = RoundShapeFrame::of(shape);
    double size = 1.0;
    for (const Vec3& v : brush.vertices) size = std::max(size, frame.toShape(v).cwiseAbs().maxCoeff());
    const ConvexPolyhedron swept = sweptBrush(brush, frame, size);
    if (swept.empty()) return;

    // Corners welded across faces; per face its corners in order and its unit normal.
    std::vector<Vec3> corners;
    std::vector<std::vector<int>> faceCorners;
    std::vector<Vec3> normals;
    const double weld = kWeldTolerance * (size + frame.halfCore);
    for (const ConvexFace& f : swept.faces) {
        std::vector<int> ids;
        for (const Vec3& v : f.polygon.vertices) {
            int id = -1;
            for (size_t c = 0; c < corners.size() && id < 0; ++c)
                if ((corners[c] - v).norm() <= weld) id = int(c);
            if (id < 0) {
                id = int(corners.size());
                corners.push_back(v);
            }
            if (ids.empty() || ids.back() != id) ids.push_back(id);
        }
        while (ids.size() > 1 && ids.front() == ids.back()) ids.pop_back();
        if (ids.size() < 3) continue;
        faceCorners.push_back(std::move(ids));
        normals.push_back(f.plane.normal.normalized());
    }

    Tessellation t(frame, step, out);
    // Faces, moved out by the radius.
    for (size_t f = 0; f < faceCorners.size(); ++f) {
        const std::vector<int>& ids = faceCorners[f];
        for (size_t i = 1; i + 1 < ids.size(); ++i)
            t.triangle(t.vertex(corners[size_t(ids[0])], normals[f]), t.vertex(corners[size_t(ids[i])], normals[f]),
                       t.vertex(corners[size_t(ids[i + 1])], normals[f]));
    }
    // Edges: the cylinder patch between their two faces' normals.
    std::map<std::pair<int, int>, std::vector<int>> edgeFaces;
    std::vector<std::vector<int>> cornerFaces(corners.size());
    for (size_t f = 0; f < faceCorners.size(); ++f) {
        const std::vector<int>& ids = faceCorners[f];
        for (size_t i = 0; i < ids.size(); ++i) {
            const int a = ids[i], b = ids[(i + 1) % ids.size()];
            edgeFaces[{std::min(a, b), std::max(a, b)}].push_back(int(f));
            cornerFaces[size_t(a)].push_back(int(f));
        }
    }
    for (const auto& [edge, faces] : edgeFaces) {
        if (faces.size() != 2) continue;
        const Vec3 &a = corners[size_t(edge.first)], &b = corners[size_t(edge.second)];
        const int k = t.segments(normals[size_t(faces[0])], normals[size_t(faces[1])]);
        for (int s = 0; s < k; ++s) {
            const Vec3 d0 = t.arc(normals, faces[0], faces[1], s, k), d1 = t.arc(normals, faces[0], faces[1], s + 1, k);
            t.triangle(t.vertex(a, d0), t.vertex(b, d0), t.vertex(b, d1));
            t.triangle(t.vertex(a, d0), t.vertex(b, d1), t.vertex(a, d1));
        }
    }
    // Corners: the sphere patch spanned by their faces' normals, as a fan around their mean
    // direction, each sector in rings whose outer ring is the arc of the edge between two
    // neighbouring faces (the edge patch's end, point for point).
    for (size_t c = 0; c < corners.size(); ++c) {
        std::vector<int> faces = cornerFaces[c];
        if (faces.size() < 3) continue;
        Vec3 mean = Vec3::Zero();
        for (int f : faces) mean += normals[size_t(f)];
        if (mean.norm() == 0.0) continue;
        mean.normalize();
        const Vec3 u = mean.unitOrthogonal(), w = mean.cross(u);
        auto angleOf = [&](int f) { return std::atan2(normals[size_t(f)].dot(w), normals[size_t(f)].dot(u)); };
        std::sort(faces.begin(), faces.end(), [&](int a, int b) { return angleOf(a) < angleOf(b); });
        // Ring j of every spoke is at the same fraction of the straight line from the mean
        // to the spoke's outer point, then pushed out onto the sphere: each sector is a flat
        // triangle cut in similar rings and seen from the centre, so it never folds over.
        // The fractions step evenly in angle along the widest spoke.
        double widest = 0.0;
        for (int f : faces)
            widest = std::max(widest, std::atan2(mean.cross(normals[size_t(f)]).norm(), mean.dot(normals[size_t(f)])));
        const int rings = std::max(1, int(std::ceil(widest / step)));
        std::vector<double> fraction(size_t(rings) + 1);
        for (int j = 0; j <= rings; ++j) {
            const double along = widest * double(j) / double(rings);
            fraction[size_t(j)] = j == rings ? 1.0 : std::sin(along) / (std::sin(along) + std::sin(widest - along));
        }
        const Vec3& at = corners[c];
        auto ringPoint = [&](int j, const Vec3& outer) {
            return t.vertex(at, j == rings ? outer : (mean + fraction[size_t(j)] * (outer - mean)).normalized());
        };
        for (size_t i = 0; i < faces.size(); ++i) {
            const int fa = faces[i], fb = faces[(i + 1) % faces.size()];
            const int k = t.segments(normals[size_t(fa)], normals[size_t(fb)]);
            for (int l = 0; l < k; ++l) {
                const Vec3 q0 = t.arc(normals, fa, fb, l, k), q1 = t.arc(normals, fa, fb, l + 1, k);
                t.triangle(ringPoint(0, q0), ringPoint(1, q0), ringPoint(1, q1));
                for (int j = 1; j < rings; ++j) {
                    t.triangle(ringPoint(j, q0), ringPoint(j + 1, q0), ringPoint(j + 1, q1));
                    t.triangle(ringPoint(j, q0), ringPoint(j + 1, q1), ringPoint(j, q1));
                }
            }
        }
    }
}

} // namespace shallot
