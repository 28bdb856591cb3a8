#pragma once
// Where the Path tool puts a walking path's end for a point of the top view: dropped from
// the view's working height onto the nearest floor under the cursor where the current pose
// can stand (core nav/standing_place.h: down from the working height first, then up; a
// wall under the cursor holds no such floor and is skipped, not stood in).
#include "tools/tool.h"

#include <QString>
#include <optional>

namespace shallot {

class Editor;

struct PathEnd {
    Vec3 point = Vec3::Zero();
    // On a floor where the current pose stands; false: no such floor under the cursor (the
    // point is the cursor, the pose's feet at the working height); nothing: not known (not
    // the top view, or the pose's walkable surfaces not built yet).
    std::optional<bool> standing;
};

// The end for a press or drag at `p` in the top view (at the grid point under the cursor).
// Before the current pose's walkable surfaces are built: placeInView's brush floor.
PathEnd placePathEnd(const Editor& editor, const ViewPoint& p);

// Why an end that stands nowhere has no path, whole: "no floor under the goal where the
// player can stand (...)". `goal`: the end is the goal, else the start.
QString noFloorReason(bool goal, const QString& pose);

} // namespace shallot
