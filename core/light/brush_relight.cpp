#include "light/brush_relight.h"

#include "light/face_light.h"
#include "light/light_occluder.h"
#include "light/outside_faces.h"
#include "light/relight.h"
#include "light/tree_occluder.h"

#include <bit>
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

Aabb gridBox(const LuxelGrid& g) {
    Aabb box;
    for (int j : {0, g.height() - 1})
        for (int i : {0, g.width() - 1}) box.add(g.pointAt(g.luxelS(i), g.luxelT(j)));
    return box;
}

Aabb with(Aabb box, const Vec3& p) {
    box.add(p);
    return box;
}

} // namespace

LevelLighting relightAfterBrushEdit(const LevelLighting& before, const LightInput& input, const BspTree& tree, int pose,
                                    const Aabb& editRegion, int threads, const LightPass& pass) {
    Aabb region = editRegion;
    region.mins -= Vec3::Constant(kEditRegionMargin);
    region.maxs += Vec3::Constant(kEditRegionMargin);
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
        const Aabb box = gridBox(grid);
        if (box.overlaps(region)) return nullptr;
        std::call_once(changedOnce, [&] {
            unmatchedLights(before.lights, lights, changed);
            unmatchedLights(lights, before.lights, changed);
        });
        const SampleSphere sphere = sampleSphere(kept.samples);
        for (const PointLight& l : changed)
            if (lightMayReach(l, face, sphere, settings.scaledist)) return nullptr;
        for (const PointLight& l : lights)
            if (lightMayReach(l, face, sphere, settings.scaledist) && with(box, l.origin).overlaps(region)) return nullptr;
        for (const SunLight& sun : settings.suns) {
            Aabb swept = box;
            swept.add(Aabb{box.mins + sun.towardSun * kSunRayLength, box.maxs + sun.towardSun * kSunRayLength});
            if (sun.light != 0 && swept.overlaps(region)) return nullptr;
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
