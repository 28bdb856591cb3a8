#pragma once
// The Leaf inspector's light lines (issue 41): the light the engine would read at an
// inspected point of a face, and the lights that reach it, from the newest lighting shown.
#include "geometry/plane.h"

#include <QString>

namespace shallot {

class LightService;
class EditorDocument;

// Empty while nothing is lit (3D Shading Flat before any lighting); a line saying so when
// the point is on no lit face.
QString lightReadingText(const LightService& lighting, const EditorDocument& document, const Vec3& point);

} // namespace shallot
