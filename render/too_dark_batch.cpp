#include "too_dark_batch.h"

#include "light/light_lookup.h"
#include "lit_face_batch.h"
#include "palette.h"

#include <cmath>

namespace shallot::render {

namespace {

bool walkable(const NavMesh& mesh, const Vec3& floor, double feet) {
    const std::vector<int32_t>* near = mesh.polygonsNear(floor.x(), floor.y());
    if (!near) return false;
    const double reference = floor.z() - feet;
    for (const int32_t i : *near) {
        const NavPolygon& p = mesh.polygons[size_t(i)];
        if (containsXY(p.vertices, floor, kNavEdgeDistance) &&
            std::abs(heightOnPolygon(p, floor.x(), floor.y()) - reference) <= kDarkFloorMatch)
            return true;
    }
    return false;
}

} // namespace

MeshBatch buildTooDarkBatch(const LevelLighting& lighting, const NavMesh& mesh, double feet, int limit) {
    MeshBatch out;
    out.lit = false;
    QColor colour = kTooDarkColour;
    colour.setAlpha(150);
    std::vector<Vec3> raised;
    for (size_t f = 0; f < lighting.faces.size() && f < lighting.lightmaps.size(); ++f) {
        const LitFace& face = lighting.faces[f];
        const FaceLightmap& map = lighting.lightmaps[f];
        if (!face.lightmapped || map.styles.empty() || face.plane.normal.z() < kDarkFloorNz) continue;
        forEachLuxelCell(face, map.grid, [&](const Polygon& cell) {
            const Vec3 middle = cell.centroid();
            const LightReading r =
                bilinearLight(map, face.projection.coordinate(0, middle), face.projection.coordinate(1, middle));
            if (r.light >= limit || !walkable(mesh, middle, feet)) return;
            raised.clear();
            for (const Vec3& v : cell.vertices) raised.push_back(v + kDarkCellLift * face.plane.normal);
            out.addPolygon(raised, face.plane.normal, colour);
        });
    }
    return out;
}

} // namespace shallot::render
