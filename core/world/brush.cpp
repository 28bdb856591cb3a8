#include "world/brush.h"

#include "world/world.h"

#include <sstream>

namespace shallot {

Brush Brush::fromPlanes(const std::vector<Plane>& planes) {
    Brush b;
    for (const Plane& p : planes) {
        BrushSide side;
        side.plane = p;
        b.sides.push_back(std::move(side));
    }
    return b;
}

Brush Brush::box(const Vec3& mins, const Vec3& maxs) {
    std::vector<Plane> planes;
    for (int axis = 0; axis < 3; ++axis) {
        Vec3 n = Vec3::Zero();
        n[axis] = 1.0;
        planes.push_back({n, maxs[axis]});
        planes.push_back({-n, -mins[axis]});
    }
    return fromPlanes(planes);
}

std::string Brush::describe(int indexInWorld) const {
    std::ostringstream s;
    if (!source.file.empty()) s << source.file << ':' << source.line << ": ";
    if (source.entity >= 0) s << "brush " << source.brush << " of entity " << source.entity;
    else s << "brush " << indexInWorld;
    return s.str();
}

std::vector<Pose> quakePoses() {
    return {
        {"point", Vec3::Zero(), Vec3::Zero(), 0xffffffffu},
        {"player", Vec3(-16, -16, -24), Vec3(16, 16, 32), 0x40c040ffu},
        {"large", Vec3(-32, -32, -24), Vec3(32, 32, 64), 0xc04040ffu},
    };
}

bool samePlanes(const Brush& a, const Brush& b) {
    if (a.sides.size() != b.sides.size()) return false;
    for (size_t s = 0; s < a.sides.size(); ++s)
        if (a.sides[s].plane.normal != b.sides[s].plane.normal || a.sides[s].plane.dist != b.sides[s].plane.dist) return false;
    return true;
}

} // namespace shallot
