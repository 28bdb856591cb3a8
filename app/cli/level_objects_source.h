#pragma once
// The movers of a shallot-cli input as collision objects (core/objects/level_objects.h).
#include "compile/bsp_tree.h"
#include "objects/level_objects.h"
#include "world/world.h"

#include <optional>
#include <string>

namespace shallot::cli {

// For a .map: its movers (core/movers), each compiled for `tree`'s poses. Other inputs
// (.obsp, .shallot) keep no entities here: nothing. An unreadable map gives nothing too
// (the tree's loader has reported it).
std::optional<LevelObjects> loadLevelObjects(const std::string& path, const BspTree& tree, const World* world,
                                             int threads);

// "3 doors, 1 plat, 2 static" (kinds in MoverKind order; "none" when empty).
std::string describeMovers(const LevelMovers& movers);

} // namespace shallot::cli
