#include "light/luxel_grid.h"

#include <cmath>
#include <limits>

namespace shallot {

namespace {

double snapped(double v) {
    const double nearest = std::round(v / kLuxelSize) * kLuxelSize;
    return std::abs(v - nearest) <= kExtentSnap ? nearest : v;
}

bool fail(std::string* error, const std::string& message) {
    if (error) *error = message;
    return false;
}

} // namespace

std::optional<LuxelGrid> luxelGrid(const LitFace& face, std::string* error) {
    LuxelGrid g;
    const TextureProjection& tex = face.projection;
    const Vec3& n = face.plane.normal;
    // A normal of the texture plane: moving along it keeps s and t.
    Vec3 texNormal = tex.axis[1].cross(tex.axis[0]);
    double distScale = texNormal.norm() > 0 ? texNormal.normalized().dot(n) : 0.0;
    if (!(std::abs(distScale) > 0) || !std::isfinite(distScale)) {
        fail(error, "texture axis perpendicular to face (texture " + face.texture + ")");
        return std::nullopt;
    }
    texNormal.normalize();
    if (distScale < 0) {
        distScale = -distScale;
        texNormal = -texNormal;
    }
    distScale = 1.0 / distScale; // distance along texNormal per unit along the face normal
    for (int i = 0; i < 2; ++i) {
        const Vec3& a = tex.axis[size_t(i)];
        const double len2 = a.squaredNorm();
        g.step[size_t(i)] = (a - texNormal * (a.dot(n) * distScale)) / len2;
    }
    g.origin = -tex.offset[0] * g.step[0] - tex.offset[1] * g.step[1];
    const double off = (g.origin.dot(n) - face.plane.dist - kSampleOffPlane) * distScale;
    g.origin -= texNormal * off;

    for (int i = 0; i < 2; ++i) {
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const Vec3& v : face.polygon.vertices) {
            const double s = tex.coordinate(i, v);
            lo = std::min(lo, s);
            hi = std::max(hi, s);
        }
        g.exactMins[size_t(i)] = lo;
        g.exactMaxs[size_t(i)] = hi;
        const double mins = std::floor(snapped(lo) / kLuxelSize), maxs = std::ceil(snapped(hi) / kLuxelSize);
        if (!std::isfinite(mins) || !std::isfinite(maxs) || maxs - mins > double(kMaxFaceLuxels)) {
            fail(error, "face too large for a lightmap (texture " + face.texture + ")");
            return std::nullopt;
        }
        g.mins[size_t(i)] = int(mins);
        g.size[size_t(i)] = int(maxs - mins);
    }
    if (g.luxels() > kMaxFaceLuxels) {
        fail(error, "face needs " + std::to_string(g.luxels()) + " luxels, more than " + std::to_string(kMaxFaceLuxels) +
                        " (texture " + face.texture + ")");
        return std::nullopt;
    }
    return g;
}

} // namespace shallot
