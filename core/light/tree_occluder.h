#pragma once
// Shadows by exact segment tests through a compiled tree: the point pose's solid (what
// stops the eye and light: solid and window brushes, the world's sky included).
#include "compile/bsp_tree.h"
#include "light/light_occluder.h"
#include "light/sky_faces.h"

#include <vector>

namespace shallot {

// The first pose of `poses` whose box is a point (not round), or -1.
int pointPoseIndex(const std::vector<Pose>& poses);

class TreeOccluder final : public LightOccluder {
public:
    // `tree` and `sky` are kept by reference.
    TreeOccluder(const BspTree& tree, int pose, const SkyFaces& sky) : tree_(tree), pose_(pose), sky_(sky) {}
    bool blocked(const Vec3& from, const Vec3& to) const override;
    bool reachesSky(const Vec3& from, const Vec3& direction) const override;
    double openDistance(const Vec3& from, const Vec3& direction, double length) const override;
    bool nearSolid(const Vec3& p, double margin) const override;

private:
    const BspTree& tree_;
    int pose_;
    const SkyFaces& sky_;
};

} // namespace shallot
