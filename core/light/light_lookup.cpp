#include "light/light_lookup.h"

#include <cmath>
#include <limits>

namespace shallot {

namespace {

// How far `p` (on the face's plane) lies outside the convex polygon; <= 0 inside.
double outsideDistance(const Polygon& polygon, const Vec3& normal, const Vec3& p) {
    double worst = -std::numeric_limits<double>::infinity();
    const size_t n = polygon.vertices.size();
    for (size_t i = 0; i < n; ++i) {
        const Vec3& a = polygon.vertices[i];
        const Vec3& b = polygon.vertices[(i + 1) % n];
        const Vec3 edge = b - a;
        const Vec3 outward = edge.cross(normal);
        const double len = outward.norm();
        if (len == 0) continue;
        worst = std::max(worst, outward.dot(p - a) / len);
    }
    return worst;
}

} // namespace

LightReading bilinearLight(const FaceLightmap& map, double s, double t) {
    LightReading r;
    if (map.styles.empty()) return r;
    const StyleLightmap& m = map.styles.front();
    const LuxelGrid& g = map.grid;
    const auto axis = [](double v, int mins, int width, int& i0, int& i1, double& f) {
        const double x = std::clamp(v / kLuxelSize - mins, 0.0, double(width - 1));
        i0 = std::min(int(std::floor(x)), width - 1);
        i1 = std::min(i0 + 1, width - 1);
        f = x - i0;
    };
    int s0, s1, t0, t1;
    double fs, ft;
    axis(s, g.mins[0], g.width(), s0, s1, fs);
    axis(t, g.mins[1], g.height(), t0, t1, ft);
    const auto at = [&](int i, int j) { return size_t(j) * size_t(g.width()) + size_t(i); };
    const std::array<std::pair<size_t, double>, 4> corners{{{at(s0, t0), (1 - fs) * (1 - ft)},
                                                            {at(s1, t0), fs * (1 - ft)},
                                                            {at(s0, t1), (1 - fs) * ft},
                                                            {at(s1, t1), fs * ft}}};
    for (const auto& [k, w] : corners) {
        r.light += w * m.light[k];
        for (int c = 0; c < 3; ++c) r.color[c] += w * m.rgb[k * 3 + size_t(c)];
    }
    return r;
}

std::optional<LightReading> readLight(const LevelLighting& lighting, const Vec3& p, const Vec3& normal, std::string& error) {
    int best = -1;
    double bestScore = std::numeric_limits<double>::infinity();
    for (size_t f = 0; f < lighting.faces.size(); ++f) {
        const LitFace& face = lighting.faces[f];
        if (face.plane.normal.dot(normal) < kLookupNormalCos) continue;
        const double off = std::abs(face.plane.signedDistance(p));
        if (off > kLookupDistance) continue;
        const Vec3 onPlane = p - face.plane.normal * face.plane.signedDistance(p);
        const double outside = outsideDistance(face.polygon, face.plane.normal, onPlane);
        if (outside > kLookupDistance) continue;
        const double score = off + std::max(0.0, outside);
        if (score < bestScore) {
            bestScore = score;
            best = int(f);
        }
    }
    if (best < 0) {
        error = "the point is on no face";
        return std::nullopt;
    }
    const LitFace& face = lighting.faces[size_t(best)];
    const FaceLightmap& map = lighting.lightmaps[size_t(best)];
    if (face.outside) {
        error = "the face there faces the void outside the level (no lightmap, as qbsp leaves it out)";
        return std::nullopt;
    }
    if (map.styles.empty()) {
        error = "the face there has no lightmap (texture " + face.texture + ")";
        return std::nullopt;
    }
    LightReading r = bilinearLight(map, face.projection.coordinate(0, p), face.projection.coordinate(1, p));
    r.face = best;
    return r;
}

} // namespace shallot
