#include "light/tree_lighting.h"

#include "light/tree_occluder.h"

namespace shallot {

LevelLighting lightLevelInTree(const LightInput& input, const BspTree& tree, int pose, int threads) {
    const SkyFaces sky(*input.worldBrushes, input.bounds);
    const TreeOccluder occluder(tree, pose, sky);
    return lightLevel(input, occluder, threads);
}

} // namespace shallot
