#pragma once
// The sky faces of a level's brushes: what a sun ray must enter through to bring sunlight
// (ericw-tools: the first face a ray from the sample towards the sun hits is sky).
#include "geometry/aabb.h"
#include "world/brush.h"

#include <vector>

namespace shallot {

// A hit point within this distance of a sky face's plane (and inside its brush by as
// much) is on that face: the trace's hit points are exact to about 1e-9; a thousandth of
// a unit stays far below any brush detail.
inline constexpr double kSkyHitTolerance = 1e-3;

class SkyFaces {
public:
    // The brushes of `brushes` that block light and have a side textured "sky...".
    SkyFaces(const std::vector<Brush>& brushes, const Aabb& bounds);
    // Is `point` (where a ray along `direction` entered a brush) on a sky side facing the ray?
    bool isSkyHit(const Vec3& point, const Vec3& direction) const;
    bool empty() const { return brushes_.empty(); }

private:
    struct SkyBrush {
        std::vector<Plane> planes;
        std::vector<bool> sky; // per plane
        Aabb bounds;
    };
    std::vector<SkyBrush> brushes_;
};

// Whether a texture is sky ("sky..." in any case).
bool skyTexture(const std::string& texture);

} // namespace shallot
