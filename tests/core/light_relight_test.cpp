// Relighting after light edits (light/light_relight.h): equal to a full lighting, byte for
// byte, after random lights move, appear and go; anything but a plain light makes it full.
#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "light/light_relight.h"
#include "light/sky_faces.h"
#include "light/tree_lighting.h"
#include "light/tree_occluder.h"
#include "random_world.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace shallot;
using namespace shallot::test;

namespace {

std::string box(int x0, int y0, int z0, int x1, int y1, int z1) {
    std::ostringstream o;
    o << "{\n( " << x0 << " 0 0 ) ( " << x0 << " 1 0 ) ( " << x0 << " 0 1 ) w 0 0 0 1 1\n"
      << "( " << x1 << " 0 0 ) ( " << x1 << " 0 1 ) ( " << x1 << " 1 0 ) w 0 0 0 1 1\n"
      << "( 0 " << y0 << " 0 ) ( 0 " << y0 << " 1 ) ( 1 " << y0 << " 0 ) w 0 0 0 1 1\n"
      << "( 0 " << y1 << " 0 ) ( 1 " << y1 << " 0 ) ( 0 " << y1 << " 1 ) w 0 0 0 1 1\n"
      << "( 0 0 " << z0 << " ) ( 1 0 " << z0 << " ) ( 0 1 " << z0 << " ) w 0 0 0 1 1\n"
      << "( 0 0 " << z1 << " ) ( 0 1 " << z1 << " ) ( 1 0 " << z1 << " ) w 0 0 0 1 1\n}\n";
    return o.str();
}

MapEntity light(Rng& rng) {
    MapEntity e;
    std::ostringstream origin;
    origin << int(uniform(rng, 16, 1008)) << " " << int(uniform(rng, 16, 496)) << " " << int(uniform(rng, 16, 240));
    e.keys = {{"classname", "light"}, {"origin", origin.str()}, {"light", std::to_string(int(uniform(rng, 100, 400)))}};
    if (rng() % 3 == 0) e.keys.push_back({"delay", std::to_string(rng() % 3)});
    return e;
}

void expectSameLight(const LevelLighting& a, const LevelLighting& b) {
    ASSERT_EQ(a.faces.size(), b.faces.size());
    for (size_t f = 0; f < a.faces.size(); ++f) {
        ASSERT_EQ(a.lightmaps[f].styles.size(), b.lightmaps[f].styles.size()) << "face " << f;
        for (size_t s = 0; s < a.lightmaps[f].styles.size(); ++s) {
            EXPECT_EQ(a.lightmaps[f].styles[s].light, b.lightmaps[f].styles[s].light) << "face " << f;
            EXPECT_EQ(a.lightmaps[f].styles[s].rgb, b.lightmaps[f].styles[s].rgb) << "face " << f;
        }
    }
}

} // namespace

TEST(LightRelight, EqualsAFullLightingAfterRandomLightEdits) {
    // Two rooms joined by a door, a pillar in each: lights in one mostly miss the other.
    std::string text = "{\n\"classname\" \"worldspawn\"\n";
    text += box(-16, -16, -16, 1040, 528, 0) + box(-16, -16, 256, 1040, 528, 272) + box(-16, -16, 0, 0, 528, 256) +
            box(1024, -16, 0, 1040, 528, 256) + box(0, -16, 0, 1024, 0, 256) + box(0, 512, 0, 1024, 528, 256) +
            box(504, 0, 0, 520, 224, 256) + box(504, 288, 0, 520, 512, 256) + box(200, 200, 0, 260, 260, 256) +
            box(760, 260, 0, 820, 320, 256);
    text += "}\n";
    const MapReadResult read = readMap(text, "rooms.map");
    ASSERT_TRUE(read.ok()) << read.error.format();
    const World world = worldFromMap(*read.map);
    const CompileResult compiled = compileWorld(world);
    ASSERT_TRUE(compiled.error.empty());
    const int pose = pointPoseIndex(world.poses);
    const SkyFaces sky(world.brushes, world.bounds);
    const TreeOccluder occluder(compiled.onion, pose, sky);

    Rng rng(3);
    std::vector<MapEntity> entities = read.map->entities;
    for (int i = 0; i < 4; ++i) entities.push_back(light(rng));
    const auto full = [&](const std::vector<MapEntity>& e) {
        return lightLevelInTree({&world.brushes, &e, world.bounds, "rooms.map"}, compiled.onion, pose, 2);
    };
    LevelLighting lit = full(entities);
    size_t relitTotal = 0, facesTotal = 0;
    for (int step = 0; step < 12; ++step) {
        std::vector<MapEntity> next = entities;
        const size_t lights = next.size() - 1;
        switch (rng() % 3) {
        case 0: next[1 + rng() % lights] = light(rng); break;                   // moved and changed
        case 1: next.push_back(light(rng)); break;                              // added
        default: if (lights > 1) next.erase(next.begin() + long(1 + rng() % lights)); // removed
        }
        const RelightPlan plan = planRelight(entities, next, "rooms.map");
        ASSERT_FALSE(plan.full);
        size_t relit = 0;
        const LevelLighting incremental = relightChangedLights(lit, plan, next, "rooms.map", occluder, 2, &relit);
        lit = full(next);
        expectSameLight(incremental, lit);
        relitTotal += relit;
        facesTotal += lit.stats.lightmappedFaces;
        entities = std::move(next);
    }
    EXPECT_LT(relitTotal, facesTotal) << "some faces were kept";

    // Not a plain light's change: full.
    std::vector<MapEntity> aimed = entities;
    aimed.back().keys.push_back({"target", "t1"});
    EXPECT_TRUE(planRelight(entities, aimed, "rooms.map").full);
    std::vector<MapEntity> minlit = entities;
    minlit.front().keys.push_back({"light", "20"});
    EXPECT_TRUE(planRelight(entities, minlit, "rooms.map").full);
    std::vector<MapEntity> monster = entities;
    monster.push_back({{{"classname", "monster_ogre"}, {"origin", "64 64 24"}}, {}, 0});
    EXPECT_TRUE(planRelight(entities, monster, "rooms.map").full);
    EXPECT_FALSE(planRelight(entities, entities, "rooms.map").full);
    EXPECT_TRUE(planRelight(entities, entities, "rooms.map").changed.empty());
}
