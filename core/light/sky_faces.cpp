#include "light/sky_faces.h"

#include "world/brush_geometry.h"

#include <algorithm>
#include <cctype>

namespace shallot {

bool skyTexture(const std::string& texture) {
    return texture.size() >= 3 && std::tolower((unsigned char)texture[0]) == 's' &&
           std::tolower((unsigned char)texture[1]) == 'k' && std::tolower((unsigned char)texture[2]) == 'y';
}

SkyFaces::SkyFaces(const std::vector<Brush>& brushes, const Aabb& bounds) {
    for (const Brush& b : brushes) {
        if (!intersects(b.contents, defaultBlocking(true))) continue;
        if (std::none_of(b.sides.begin(), b.sides.end(), [](const BrushSide& s) { return skyTexture(s.texture); }))
            continue;
        const BrushGeometryResult g = buildBrushGeometry(b, bounds);
        if (!g.geometry) continue;
        SkyBrush sky;
        for (const BrushSide& s : b.sides) {
            sky.planes.push_back(s.plane);
            sky.sky.push_back(skyTexture(s.texture));
        }
        sky.bounds = g.geometry->bounds;
        brushes_.push_back(std::move(sky));
    }
}

bool SkyFaces::isSkyHit(const Vec3& point, const Vec3& direction) const {
    for (const SkyBrush& b : brushes_) {
        if (!b.bounds.contains(point, kSkyHitTolerance)) continue;
        bool inside = true, onSky = false;
        for (size_t k = 0; k < b.planes.size() && inside; ++k) {
            const double d = b.planes[k].signedDistance(point);
            inside = d <= kSkyHitTolerance;
            onSky |= b.sky[k] && d >= -kSkyHitTolerance && b.planes[k].normal.dot(direction) < 0;
        }
        if (inside && onSky) return true;
    }
    return false;
}

} // namespace shallot
