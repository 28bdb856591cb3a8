#include "query/round_shape_space.h"

#include <algorithm>

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

RoundBrush RoundBrush::of(const BrushGeometry& geometry, const RoundShapeFrame& frame) {
    RoundBrush b;
    for (const Vec3& v : geometry.vertices) b.vertices.push_back(frame.toShape(v));
    for (const auto& [p, q] : geometry.edges) b.edges.emplace_back(frame.toShape(p), frame.toShape(q));
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
    return b;
}

} // namespace shallot
