#include "geometry/plane.h"

#include <cmath>

namespace shallot {

std::optional<Plane> Plane::fromPoints(const Vec3& a, const Vec3& b, const Vec3& c) {
    if (!a.allFinite() || !b.allFinite() || !c.allFinite()) return std::nullopt;
    const Vec3 n = (a - b).cross(c - b);
    const double len = n.norm();
    // Relative test: the triangle's doubled area against its edge lengths.
    const double scale = (a - b).norm() * (c - b).norm();
    if (!(len > 1e-12 * scale) || len == 0.0) return std::nullopt;
    Plane p;
    p.normal = n / len;
    p.dist = p.normal.dot(b);
    return p;
}

int Plane::axis() const {
    // Not |normal[i]| == 1 alone: a normal turned by up to 1e-8 still has a component that
    // rounds to exactly 1.
    for (int i = 0; i < 3; ++i)
        if (std::abs(normal[i]) == 1.0 && normal[(i + 1) % 3] == 0.0 && normal[(i + 2) % 3] == 0.0) return i;
    return -1;
}

} // namespace shallot
