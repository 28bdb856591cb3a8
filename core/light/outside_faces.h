#pragma once
// The faces that look out into the void around a sealed level: qbsp fills the outside
// and leaves them out of the .bsp, so light gives them no lightmap. Found through the
// tree's portals: the leaf just in front of the face is reachable from the world box.
#include "compile/bsp_tree.h"
#include "light/lit_faces.h"

#include <vector>

namespace shallot {

// The point probed in front of a face lies this far off its plane: far above rounding and
// far below any gap a designer leaves between brushes.
inline constexpr double kOutsideProbe = 0.01;

struct OutsideFaces {
    std::vector<bool> outside; // per face; all false when the level leaks
    bool leaks = false;        // a point of `inside` is reachable from the void
};

// `inside`: points that must be inside the level (the lights); one in an empty leaf
// reachable from the world box means the level leaks, and then no face is outside (qbsp
// keeps every face of a leaking level too). Needs tree.portals.
OutsideFaces findOutsideFaces(const std::vector<LitFace>& faces, const BspTree& tree, int pose,
                              const std::vector<Vec3>& inside);

} // namespace shallot
