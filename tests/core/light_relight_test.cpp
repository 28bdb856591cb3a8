// Relighting after a light changes (light/relight.h) equals lighting the edited level from
// scratch, and touches only the faces the change can reach.
#include "light_level.h"

#include "light/relight.h"

#include <sstream>

using namespace shallot;
using namespace shallot::test;

namespace {

std::string level(const std::vector<Vec3>& lights, int minlight) {
    std::ostringstream m;
    m << "{\n\"classname\" \"worldspawn\"\n";
    if (minlight > 0) m << "\"light\" \"" << minlight << "\"\n";
    const std::vector<std::string> p{"0 0 0 1 1", "[ 1 0 0 3 ] [ 0 0 -1 5 ] 0 1 1", "7 9 30 0.5 2"};
    m << boxBrushText({-16, -16, -16}, {1040, 528, 0}, "floor", p);
    m << boxBrushText({-16, -16, 192}, {1040, 528, 208}, "ceiling", p);
    m << boxBrushText({-16, -16, 0}, {0, 528, 192}, "wall", p);
    m << boxBrushText({1024, -16, 0}, {1040, 528, 192}, "wall", p);
    m << boxBrushText({0, -16, 0}, {1024, 0, 192}, "wall", p);
    m << boxBrushText({0, 512, 0}, {1024, 528, 192}, "wall", p);
    for (int x = 128; x < 1024; x += 192) m << boxBrushText({double(x), 96, 0}, {x + 32.0, 128, 160}, "pillar", p);
    m << "}\n";
    for (const Vec3& o : lights)
        m << "{\n\"classname\" \"light\"\n\"origin\" \"" << o.x() << " " << o.y() << " " << o.z() << "\"\n\"light\" \"200\"\n}\n";
    return m.str();
}

bool sameLightmaps(const LevelLighting& a, const LevelLighting& b) {
    if (a.lightmaps.size() != b.lightmaps.size()) return false;
    for (size_t f = 0; f < a.lightmaps.size(); ++f) {
        if (a.lightmaps[f].styles.size() != b.lightmaps[f].styles.size()) return false;
        for (size_t s = 0; s < a.lightmaps[f].styles.size(); ++s)
            if (a.lightmaps[f].styles[s].style != b.lightmaps[f].styles[s].style ||
                a.lightmaps[f].styles[s].rgb != b.lightmaps[f].styles[s].rgb ||
                a.lightmaps[f].styles[s].light != b.lightmaps[f].styles[s].light)
                return false;
    }
    return true;
}

TEST(LightRelight, IncrementalEqualsFull) {
    Rng rng(4141);
    std::vector<Vec3> lights;
    for (int i = 0; i < 6; ++i) lights.push_back({uniform(rng, 16, 1008), uniform(rng, 16, 496), uniform(rng, 16, 176)});
    LitLevel base = readLevel(level(lights, 0));
    World shadow = base.world;
    shadow.poses = {base.world.poses[size_t(pointPoseIndex(base.world.poses))]};
    const CompileResult compiled = compileWorld(shadow);
    const SkyFaces sky(base.world.brushes, base.world.bounds);
    const TreeOccluder occluder(compiled.onion, 0, sky);
    LevelLighting lit = lightLevelInTree(lightInput(base), compiled.onion, 0, 2);
    int minlight = 0;
    for (int edit = 0; edit < 12; ++edit) {
        const int kind = edit % 4;
        if (kind == 0) lights[rng() % lights.size()] = {uniform(rng, 16, 1008), uniform(rng, 16, 496), uniform(rng, 16, 176)};
        if (kind == 1) lights.push_back({uniform(rng, 16, 1008), uniform(rng, 16, 496), uniform(rng, 16, 176)});
        if (kind == 2) lights.erase(lights.begin() + long(rng() % lights.size()));
        if (kind == 3) minlight = minlight ? 0 : 20;
        const LitLevel edited = readLevel(level(lights, minlight));
        const RelightStats s =
            relightChangedLights(lit, readLightEntities(edited.map.entities, "room.map"), occluder, 2);
        const LevelLighting full = lightLevelInTree(lightInput(edited), compiled.onion, 0, 2);
        ASSERT_TRUE(sameLightmaps(lit, full)) << "edit " << edit;
        if (kind == 3) EXPECT_TRUE(s.everyFace);
        else {
            EXPECT_EQ(s.changedLights, kind == 0 ? 2u : 1u) << edit;
            // One 200 light in a 1024-unit room reaches part of it only.
            EXPECT_LT(s.faces, full.stats.lightmappedFaces) << edit;
            EXPECT_GT(s.faces, 0u) << edit;
        }
    }
}

} // namespace
