#include "compile/union_faces.h"

#include "geometry/tolerances.h"

#include <algorithm>
#include <numeric>
#include <optional>

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
// brush `other`, appending them to `outside`. A piece that does not reach into `other` is
// kept whole: splitting it at the planes of `other` it straddles before finding that its
// rest lies in front of another would cut it for nothing (on id_e1m1 and terrain maps most
// of the pieces a face was cut into came from such neighbours).
void keepOutside(Polygon piece, PlaneId facePlane, int32_t self, const ExpandedBrush& other, const PlanePool& pool,
                 std::vector<Polygon>& outside) {
    const Vec3& faceNormal = pool[facePlane].normal;
    const size_t firstOutside = outside.size();
    std::optional<Polygon> uncut; // the piece as it came, kept once a split has cut it
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
        if (side == Side::Straddle) {
            SplitPolygon s = split(piece, plane, kOnPlaneEpsilon);
            if (s.front.empty() && s.back.empty()) return; // numerically nothing left
            if (s.back.empty()) {
                side = Side::Front;
            } else {
                if (!s.front.empty()) {
                    if (!uncut) uncut = piece;
                    outside.push_back(std::move(s.front));
                }
                piece = std::move(s.back);
                continue;
            }
        }
        if (side == Side::Front) { // the rest lies outside `other`, so all of the piece does
            outside.resize(firstOutside);
            outside.push_back(uncut ? std::move(*uncut) : std::move(piece));
            return;
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
        for (Polygon& p : pieces) out.push_back({std::move(p), facePlane, b.brush, int32_t(f)});
    }
}

} // namespace shallot
