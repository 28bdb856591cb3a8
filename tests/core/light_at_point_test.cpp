// What lights a point (light/light_at_point.h): at a luxel in the middle of a face, the
// lights that reach it add up to the lightmap's value there; a blocked light is left out.
#include "light_level.h"

#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "light/light_at_point.h"
#include "light/tree_lighting.h"
#include "light/tree_occluder.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace shallot;

namespace {

std::string box(int x0, int y0, int z0, int x1, int y1, int z1) {
    return test::boxBrushText(Vec3(x0, y0, z0), Vec3(x1, y1, z1), "w", {"0 0 0 1 1"});
}

} // namespace

TEST(LightAtPoint, LightsReachingAddUpToTheLuxelAndSkipTheBlocked) {
    std::string text = "{\n\"classname\" \"worldspawn\"\n\"light\" \"5\"\n";
    text += box(-16, -16, -16, 528, 528, 0) + box(-16, -16, 256, 528, 528, 272) + box(-16, -16, 0, 0, 528, 256) +
            box(512, -16, 0, 528, 528, 256) + box(0, -16, 0, 512, 0, 256) + box(0, 512, 0, 512, 528, 256) +
            box(224, 224, 0, 288, 288, 256); // a pillar
    text += "}\n{\n\"classname\" \"light\"\n\"origin\" \"128 256 128\"\n\"light\" \"600\"\n}\n";
    text += "{\n\"classname\" \"light\"\n\"origin\" \"400 400 200\"\n\"light\" \"300\"\n\"delay\" \"2\"\n}\n";
    const MapReadResult read = readMap(text, "room.map");
    ASSERT_TRUE(read.ok()) << read.error.format();
    const World world = worldFromMap(*read.map);
    const CompileResult compiled = compileWorld(world);
    ASSERT_TRUE(compiled.error.empty()) << compiled.error;
    const int pose = pointPoseIndex(world.poses);
    ASSERT_GE(pose, 0);
    const LightInput input{&world.brushes, &read.map->entities, world.bounds, "room.map"};
    const LevelLighting lighting = lightLevelInTree(input, compiled.onion, pose, 1);
    const LightEntities sources = readLightEntities(read.map->entities, "room.map");
    ASSERT_EQ(sources.lights.size(), 2u);
    const SkyFaces sky(world.brushes, world.bounds);
    const TreeOccluder occluder(compiled.onion, pose, sky);

    int checked = 0, blockedSeen = 0;
    for (int x = 32; x < 512; x += 64)
        for (int y = 32; y < 512; y += 64) {
            const Vec3 p(x, y, 0); // on the 16-grid: a luxel of the floor's lightmap
            if (x > 216 && x < 296 && y > 216 && y < 296) continue; // under the pillar
            const std::optional<LightReading> reading = lightAtSurface(lighting, p);
            ASSERT_TRUE(reading.has_value()) << p.transpose();
            const std::vector<LightSourceAt> reaching = lightsReaching(sources.lights, sources.settings, p, Vec3::UnitZ(), occluder);
            double sum = 0;
            for (const LightSourceAt& r : reaching) sum += r.value;
            // The local minlight of worldspawn ("light" 5) is the floor of the sum.
            const double expected = std::min(255.0, std::max(sum, sources.settings.minlight * sources.settings.rangescale));
            EXPECT_NEAR(reading->light, expected, 1.0) << p.transpose();
            blockedSeen += reaching.size() < 2;
            ++checked;
        }
    EXPECT_GT(checked, 50);
    EXPECT_GT(blockedSeen, 0) << "the pillar blocks a light somewhere";
}
