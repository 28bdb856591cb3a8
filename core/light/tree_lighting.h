#pragma once
// A level lit with shadows from a compiled tree: the point pose's solid (tree_occluder.h)
// and the world's sky faces for sunlight.
#include "compile/bsp_tree.h"
#include "light/level_light.h"

namespace shallot {

// `pose`: the tree's point pose (pointPoseIndex); `bounces`: that many bounces of diffuse
// light (bounce.h) after the direct light (none in a coarse pass: refine it first).
LevelLighting lightLevelInTree(const LightInput& input, const BspTree& tree, int pose, int threads, int bounces = 0,
                               const LightPass& pass = {});

} // namespace shallot
