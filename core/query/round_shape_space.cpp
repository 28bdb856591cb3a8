#include "query/round_shape_space.h"

#include <algorithm>
#include <cmath>

namespace shallot {

RoundShapeFrame RoundShapeFrame::of(const PoseShape& shape) {
    RoundShapeFrame f;
    if (shape.kind == PoseShapeKind::Ellipsoid) {
        f.scale = Vec3(1.0 / shape.radius, 1.0 / shape.radius, 1.0 / shape.height);
        f.radius = 1.0;
        f.shapePerWorld = 1.0 / std::max(shape.radius, shape.height);
    } else {
        f.radius = shape.radius;
        f.halfCore = 0.5 * shape.height - shape.radius;
    }
    return f;
}

namespace {

uint64_t facesThrough(const RoundBrush& b, const Vec3& v) {
    uint64_t mask = 0;
    const double tolerance = kOnFaceTolerance * (1.0 + v.cwiseAbs().maxCoeff());
    for (size_t f = 0; f < b.faces.size(); ++f)
        if (std::abs(b.faces[f].plane.signedDistance(v)) <= tolerance) mask |= RoundBrush::faceMask(f);
    return mask;
}

} // namespace

RoundBrush RoundBrush::of(const BrushGeometry& geometry, const RoundShapeFrame& frame) {
    RoundBrush b;
    for (const Vec3& v : geometry.vertices) b.vertices.push_back(frame.toShape(v));
    for (const auto& [p, q] : geometry.edges) {
        RoundEdge e{frame.toShape(p), frame.toShape(q)};
        e.length = (e.to - e.from).norm();
        if (e.length == 0.0) continue; // a point: its vertex covers it
        e.dir = (e.to - e.from) / e.length;
        const Vec3 across = e.dir.cross(Vec3::UnitZ());
        // Nearly vertical: the core's side meets it as a vertex (round_shape_trace.cpp).
        if (across.norm() > kVerticalEdgeSine) e.across = across.normalized();
        b.edges.push_back(e);
    }
    for (const ConvexFace& face : geometry.hull.faces) {
        std::vector<Vec3> loop;
        for (const Vec3& v : face.polygon.vertices) loop.push_back(frame.toShape(v));
        if (loop.size() < 3) continue;
        // The plane through the mapped polygon (normals map by the inverse scale); its
        // sides' outward planes point away from the polygon's vertex centroid.
        const Vec3 n = face.plane.normal.cwiseQuotient(frame.scale).normalized();
        Vec3 centre = Vec3::Zero();
        for (const Vec3& v : loop) centre += v;
        centre /= double(loop.size());
        RoundFace f{{n, n.dot(centre)}, uint32_t(b.faceSides.size()), 0};
        for (size_t i = 0; i < loop.size(); ++i) {
            const Vec3& p = loop[i];
            const Vec3& q = loop[(i + 1) % loop.size()];
            Vec3 side = (q - p).cross(n);
            const double length = side.norm();
            if (length == 0.0) continue; // a repeated vertex
            side /= length;
            if (side.dot(centre - p) > 0.0) side = -side;
            b.faceSides.push_back({side, side.dot(p)});
            ++f.sideCount;
        }
        b.faces.push_back(f);
    }
    for (const Vec3& v : b.vertices) b.vertexFaces.push_back(facesThrough(b, v));
    for (RoundEdge& e : b.edges) e.faces = facesThrough(b, e.from) & facesThrough(b, e.to);
    return b;
}

} // namespace shallot
