#include "light/brush_relight.h"

#include "light/face_light.h"
#include "light/light_occluder.h"
#include "light/outside_faces.h"
#include "light/relight.h"
#include "light/sample_points.h"
#include "light/tree_occluder.h"

#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <span>
#include <mutex>
#include <unordered_map>

namespace shallot {

namespace {

// The exact face: texture, plane, projection and vertices, bit for bit.
std::string faceKey(const LitFace& f) {
    std::string key = f.texture;
    key.push_back('\0');
    const auto add = [&](double v) {
        const uint64_t b = std::bit_cast<uint64_t>(v);
        key.append(reinterpret_cast<const char*>(&b), sizeof b);
    };
    for (int i = 0; i < 3; ++i) add(f.plane.normal[i]);
    add(f.plane.dist);
    for (int a = 0; a < 2; ++a) {
        for (int i = 0; i < 3; ++i) add(f.projection.axis[size_t(a)][i]);
        add(f.projection.offset[size_t(a)]);
    }
    for (const Vec3& v : f.polygon.vertices)
        for (int i = 0; i < 3; ++i) add(v[i]);
    key.push_back(char(f.entity + 2));
    return key;
}

// The corners of the parallelogram of a grid's luxel points (pointAt is affine in s and t):
// (first, first), (last, first), (first, last), (last, last).
std::array<Vec3, 4> gridCorners(const LuxelGrid& g) {
    const double s0 = g.luxelS(0), s1 = g.luxelS(g.width() - 1), t0 = g.luxelT(0), t1 = g.luxelT(g.height() - 1);
    return {g.pointAt(s0, t0), g.pointAt(s1, t0), g.pointAt(s0, t1), g.pointAt(s1, t1)};
}

Aabb boxOf(std::span<const Vec3> points) {
    Aabb box;
    for (const Vec3& p : points) box.add(p);
    return box;
}

// Whether the convex hull of `points` meets `box`, by separating axes: the box's axes, the
// cross products of two of `edges` (which must hold the direction of every edge of the
// hull, so their crosses hold its face normals) and of an edge with a box axis. A hull
// separated from the box along none of them meets it (two convex polytopes). Gaps under
// kSeparationSlack of the extent count as touching: never separated by rounding.
bool hullMeetsBox(std::span<const Vec3> points, std::span<const Vec3> edges, const Aabb& box) {
    constexpr double kSeparationSlack = 1e-9;
    const Vec3 centre = 0.5 * (box.mins + box.maxs), half = 0.5 * (box.maxs - box.mins);
    auto separates = [&](const Vec3& axis) {
        const double length = axis.norm();
        if (length < 1e-12) return false;
        const Vec3 a = axis / length;
        const double c = a.dot(centre), r = half.dot(a.cwiseAbs());
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const Vec3& p : points) {
            const double v = a.dot(p);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        const double slack = kSeparationSlack * (1.0 + std::abs(c) + r + std::abs(lo) + std::abs(hi));
        return lo > c + r + slack || hi < c - r - slack;
    };
    for (int k = 0; k < 3; ++k)
        if (separates(Vec3::Unit(k))) return false;
    for (size_t i = 0; i < edges.size(); ++i) {
        for (size_t j = i + 1; j < edges.size(); ++j)
            if (separates(edges[i].cross(edges[j]))) return false;
        for (int k = 0; k < 3; ++k)
            if (separates(edges[i].cross(Vec3::Unit(k)))) return false;
    }
    return true;
}

} // namespace

LevelLighting relightAfterBrushEdit(const LevelLighting& before, const LightInput& input, const BspTree& tree, int pose,
                                    const Aabb& editRegion, int threads, const LightPass& pass) {
    // A luxel's sample point lies on its grid's parallelogram or, after samplePoints' last
    // move, up to kSampleStep off it: the segments from it lie within that of the
    // parallelogram's, so the region grown by it is tested against the parallelogram's.
    Aabb region = editRegion;
    region.mins -= Vec3::Constant(kEditRegionMargin + kSampleStep);
    region.maxs += Vec3::Constant(kEditRegionMargin + kSampleStep);
    std::unordered_map<std::string, size_t> old;
    for (size_t f = 0; f < before.faces.size(); ++f)
        if (!before.faces[f].outside && !before.lightmaps[f].styles.empty() && before.lightmaps[f].stride == 1)
            old.emplace(faceKey(before.faces[f]), f);

    // The lights that differ from before (the nudge may move one out of a new brush): the
    // same list for every face, worked out on the first.
    std::once_flag changedOnce;
    std::vector<PointLight> changed;
    const FaceReuse reuse = [&](const LitFace& face, const LuxelGrid& grid, const std::vector<PointLight>& lights,
                                const LightSettings& settings) -> const FaceLightmap* {
        if (!sameLightSettings(settings, before.settings)) return nullptr;
        const auto it = old.find(faceKey(face));
        if (it == old.end()) return nullptr;
        const FaceLightmap& kept = before.lightmaps[it->second];
        const std::array<Vec3, 4> corners = gridCorners(grid);
        const Aabb box = boxOf(corners);
        if (box.overlaps(region)) return nullptr;
        const Vec3 across = corners[1] - corners[0], along = corners[2] - corners[0];
        std::call_once(changedOnce, [&] {
            unmatchedLights(before.lights, lights, changed);
            unmatchedLights(lights, before.lights, changed);
        });
        const SampleSphere sphere = sampleSphere(kept.samples);
        for (const PointLight& l : changed)
            if (lightMayReach(l, face, sphere, settings.scaledist)) return nullptr;
        // A light's segments from the luxels fill the pyramid from the parallelogram to the
        // light; a sun's, the prism swept from it towards the sun. (No brush changed: none
        // meets an edit.)
        if (region.empty()) return &kept;
        for (const PointLight& l : lights) {
            if (!lightMayReach(l, face, sphere, settings.scaledist)) continue;
            const std::array<Vec3, 5> pyramid{corners[0], corners[1], corners[2], corners[3], l.origin};
            const std::array<Vec3, 6> edges{across, along, l.origin - corners[0], l.origin - corners[1], l.origin - corners[2],
                                            l.origin - corners[3]};
            if (hullMeetsBox(pyramid, edges, region)) return nullptr;
        }
        for (const SunLight& sun : settings.suns) {
            if (sun.light == 0) continue;
            const Vec3 ray = sun.towardSun * kSunRayLength;
            const std::array<Vec3, 8> prism{corners[0],       corners[1],       corners[2],       corners[3],
                                            corners[0] + ray, corners[1] + ray, corners[2] + ray, corners[3] + ray};
            const std::array<Vec3, 3> edges{across, along, ray};
            if (hullMeetsBox(prism, edges, region)) return nullptr;
        }
        if (settings.dirtInUse && box.overlaps(region, settings.dirt.depth)) return nullptr;
        return &kept;
    };

    const SkyFaces sky(*input.worldBrushes, input.bounds);
    const TreeOccluder occluder(tree, pose, sky);
    const OutsideFaceTest outside = [&](const std::vector<LitFace>& faces, const LightEntities& entities,
                                        std::vector<std::string>&) {
        std::vector<Vec3> inside;
        for (const PointLight& l : entities.lights) inside.push_back(l.origin);
        return findOutsideFaces(faces, tree, pose, inside).outside;
    };
    return lightLevel(input, occluder, threads, outside, reuse, pass);
}

} // namespace shallot
