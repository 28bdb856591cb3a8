#pragma once
// Picking helpers shared by the 2D tools.
#include "tools/tool.h"
#include "world/brush_geometry.h"

#include <memory>
#include <optional>
#include <vector>

namespace shallot {

// The brush under a 2D view point: the one reaching nearest the viewer along the view's
// depth axis; in a view cut at its working depth (p.cutsAtDepth), one the plane cuts, else
// the nearest beyond the plane, else the nearest in front of it. Invalid brushes (no
// geometry) are skipped.
std::optional<int> pickBrush2d(const std::vector<std::shared_ptr<const BrushGeometry>>& geometry, const ViewPoint& p);

// The depth interval [enter, exit] along the view axis of the line through p, inside the
// brush; empty when the line misses it.
std::optional<std::pair<double, double>> depthSpan(const BrushGeometry& g, const ViewPoint& p);

class Editor;

// The highest brush top straight below `point` (at its x, y, not above its z) that no
// other brush stands on or encloses (of the brushes a box stands on: solid, window, clip); with `orLowest`, when there is none, the lowest such
// top in that column (placing on a landing above the working height puts the point on the
// landing, not on the floor under it).
std::optional<double> floorBelow(const Editor& editor, const Vec3& point, bool orLowest = false);

// Whether `point` lies inside a brush a box stands on (beyond kCoverTolerance of its
// boundary).
bool insideBrush(const Editor& editor, const Vec3& point);

// How far an entity whose box is `box`, moved by `offset` across the top view, rises (sinks
// when negative) to keep its height above the floor under it: the floor under its middle
// now (the highest brush top not above its feet) and the one there that it walks onto from
// that floor (the highest not more than a stair step above it; none: the nearest above,
// when not above the top of its box: a ledge it would stand in). Nothing: no floor under
// it now, or none there (its absolute height is kept).
std::optional<double> floorFollowingRise(const Editor& editor, const Aabb& box, const Vec3& offset);

// A 3D point for a click in a 2D view, snapped to the grid: in the top view at the height
// where the current pose's box rests on the floor under the cursor (the highest surface
// below the view's working height), in the front and side views at their working depth.
Vec3 placeInView(const Editor& editor, const ViewPoint& p);

} // namespace shallot
