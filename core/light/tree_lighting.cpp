#include "light/tree_lighting.h"

#include "light/bounce.h"
#include "light/outside_faces.h"
#include "light/tree_occluder.h"

namespace shallot {

LevelLighting lightLevelInTree(const LightInput& input, const BspTree& tree, int pose, int threads, int bounces,
                               const LightPass& pass) {
    const SkyFaces sky(*input.worldBrushes, input.bounds);
    const TreeOccluder occluder(tree, pose, sky);
    const OutsideFaceTest outside = [&](const std::vector<LitFace>& faces, const LightEntities& entities,
                                        std::vector<std::string>& warnings) {
        std::vector<Vec3> inside;
        for (const PointLight& l : entities.lights) inside.push_back(l.origin);
        OutsideFaces found = findOutsideFaces(faces, tree, pose, inside);
        if (found.leaks)
            warnings.push_back(input.file + ": the level leaks (a light reaches the void around it): every face is lit");
        return found.outside;
    };
    LevelLighting lit = lightLevel(input, occluder, threads, outside, {}, pass);
    if (bounces > 0 && pass.stride == 1) addBounce(lit, occluder, bounces, threads);
    return lit;
}

} // namespace shallot
