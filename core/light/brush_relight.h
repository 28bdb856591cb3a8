#pragma once
// Relighting after a brush edit: the level is lit again from its edited brushes, but a face
// that is the same as before (same polygon, plane, texture and projection) keeps its old
// lightmap unless something it depends on can have changed: its luxel grid, or the box
// around the grid and a light that reaches it, or a sun's ray from the grid, or its dirt
// rays, meets the edited region; or a light that reaches it changed (moved out of a new
// solid by the nudge). Every segment a kept face's light depends on stays clear of the
// edit, so a full light would give it the same lightmap.
#include "compile/bsp_tree.h"
#include "light/level_light.h"

namespace shallot {

// The edited region is grown by this before the tests: the tree's own tolerances (1e-4)
// and the nudge's 0.1 stay far inside it.
inline constexpr double kEditRegionMargin = 1.0;

// `before`: the lighting of the level before the edit; `input`, `tree` and `pose` (its point
// pose): the level after it; `region`: a box holding every brush the edit removed, changed
// or added, before and after. No bounce. The faces lit again are lit at `pass`'s stride
// (a face of `before` keeps its lightmap only when it was lit in full).
LevelLighting relightAfterBrushEdit(const LevelLighting& before, const LightInput& input, const BspTree& tree, int pose,
                                    const Aabb& region, int threads, const LightPass& pass = {});

} // namespace shallot
