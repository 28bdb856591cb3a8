#pragma once
// What an edit of a level leaves to relight (issue 41, "Live"), for the editor's lighting:
// whether only lights (and worldspawn's keys) changed, so that relightChangedLights
// (relight.h) applies, and the region a brush edit touched, for relightAfterBrushEdit
// (brush_relight.h).
#include "geometry/aabb.h"
#include "io/map_file.h"

#include <optional>
#include <vector>

namespace shallot {

// Entity lists as LightInput takes them (worldspawn first): true when every entity that is
// not a light ("light..." classname) nor worldspawn is in both, with the same keys and
// brushes (brush entities make lit faces: a change of theirs changes the faces).
bool onlyLightsDiffer(const std::vector<MapEntity>& before, const std::vector<MapEntity>& after);

// Every entity the same, in the same order (keys and brushes).
bool sameEntities(const std::vector<MapEntity>& before, const std::vector<MapEntity>& after);

// The box around every brush an edit removed, changed or added (matched by index when the
// counts agree, else by the common prefix and suffix); an empty box when nothing changed.
// Nothing when a changed brush has no valid geometry inside `bounds` (relight everything).
std::optional<Aabb> changedBrushRegion(const std::vector<Brush>& before, const std::vector<Brush>& after, const Aabb& bounds);

} // namespace shallot
