#include "compile/union_faces.h"

#include "geometry/tolerances.h"

#include <algorithm>
#include <numeric>

namespace shallot {

ExpandedBrush makeExpandedBrush(int32_t brush, ConvexPolyhedron hull, PlanePool& pool) {
    ExpandedBrush e;
    e.brush = brush;
    for (const ConvexFace& f : hull.faces) e.planes.push_back(pool.insert(f.plane));
    e.bounds = hull.bounds();
    e.hull = std::move(hull);
    return e;
}

bool brushesMayTouch(const ExpandedBrush& a, const ExpandedBrush& b) {
    return a.bounds.overlaps(b.bounds, kOnPlaneEpsilon);
}

// By sweep and prune along x.
std::vector<std::vector<int32_t>> overlappingBrushes(const std::vector<ExpandedBrush>& brushes) {
    std::vector<int32_t> order(brushes.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        return brushes[size_t(a)].bounds.mins.x() < brushes[size_t(b)].bounds.mins.x();
    });
    std::vector<std::vector<int32_t>> neighbours(brushes.size());
    for (size_t i = 0; i < order.size(); ++i) {
        const Aabb& a = brushes[size_t(order[i])].bounds;
        for (size_t j = i + 1; j < order.size(); ++j) {
            const Aabb& b = brushes[size_t(order[j])].bounds;
            if (b.mins.x() > a.maxs.x() + kOnPlaneEpsilon) break;
            if (brushesMayTouch(brushes[size_t(order[i])], brushes[size_t(order[j])])) {
                neighbours[size_t(order[i])].push_back(order[j]);
                neighbours[size_t(order[j])].push_back(order[i]);
            }
        }
    }
    for (auto& n : neighbours) std::sort(n.begin(), n.end());
    return neighbours;
}

namespace {

// Keeps the parts of `piece` (a face of brush `self` on plane `facePlane`) outside
// brush `other`, appending them to `outside`.
void keepOutside(Polygon piece, PlaneId facePlane, int32_t self, const ExpandedBrush& other, const PlanePool& pool,
                 std::vector<Polygon>& outside) {
    const Vec3& faceNormal = pool[facePlane].normal;
    for (size_t k = 0; k < other.planes.size(); ++k) {
        const PlaneId q = other.planes[k];
        const Plane& plane = pool[q];
        Side side = sameSurface(q, facePlane) ? Side::On : classify(piece, plane, kOnPlaneEpsilon);
        if (side == Side::On) {
            // Coplanar. Back to back: interior, keep clipping. Same facing: the brush that
            // comes first keeps the face, so for the later one it counts as inside.
            const bool sameFacing = plane.normal.dot(faceNormal) > 0.0;
            side = (sameFacing && self < other.brush) ? Side::Front : Side::Back;
        }
        if (side == Side::Front) {
            outside.push_back(std::move(piece));
            return;
        }
        if (side == Side::Straddle) {
            SplitPolygon s = split(piece, plane, kOnPlaneEpsilon);
            if (!s.front.empty()) outside.push_back(std::move(s.front));
            if (s.back.empty()) return;
            piece = std::move(s.back);
        }
    }
    // What is left is inside `other`: dropped.
}

} // namespace

void unionFacesOf(const ExpandedBrush& b, const std::vector<const ExpandedBrush*>& neighbours, const PlanePool& pool,
                  std::vector<UnionFace>& out) {
    std::vector<Polygon> pieces, next;
    for (size_t f = 0; f < b.hull.faces.size(); ++f) {
        const PlaneId facePlane = b.planes[f];
        pieces.assign(1, b.hull.faces[f].polygon);
        Aabb faceBox;
        for (const Vec3& v : pieces[0].vertices) faceBox.add(v);
        for (const ExpandedBrush* other : neighbours) {
            if (!other->bounds.overlaps(faceBox, kOnPlaneEpsilon)) continue;
            next.clear();
            for (Polygon& p : pieces) keepOutside(std::move(p), facePlane, b.brush, *other, pool, next);
            pieces.swap(next);
            if (pieces.empty()) break;
        }
        for (Polygon& p : pieces) out.push_back({std::move(p), facePlane, b.brush});
    }
}

} // namespace shallot
