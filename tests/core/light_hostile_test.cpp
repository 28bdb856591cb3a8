// Hostile input to the lighting: non-finite and huge light values, keys that do not read,
// a million-unit light, 10,000 lights, faces with no area or no usable texture axes. Each
// gives a clear warning (or is simply lit) and the lighting finishes.
#include "light_level.h"

#include "light/light_lookup.h"

#include <chrono>
#include <cmath>

using namespace shallot;
using namespace shallot::test;

namespace {

// A closed 128-unit room with one light per entry of `lights` (key-value lines).
std::string room(const std::vector<std::string>& lights, const std::string& worldKeys = "") {
    std::string m = "{\n\"classname\" \"worldspawn\"\n" + worldKeys;
    const std::vector<std::string> params{"0 0 0 1 1"};
    m += boxBrushText({-16, -16, -16}, {144, 144, 0}, "floor", params);
    m += boxBrushText({-16, -16, 128}, {144, 144, 144}, "ceiling", params);
    m += boxBrushText({-16, -16, 0}, {0, 144, 128}, "wall", params);
    m += boxBrushText({128, -16, 0}, {144, 144, 128}, "wall", params);
    m += boxBrushText({0, -16, 0}, {128, 0, 128}, "wall", params);
    m += boxBrushText({0, 128, 0}, {128, 144, 128}, "wall", params);
    m += "}\n";
    for (const std::string& l : lights) m += "{\n\"classname\" \"light\"\n" + l + "}\n";
    return m;
}

bool anyWarningHas(const LevelLighting& lit, const std::string& text) {
    for (const std::string& w : lit.warnings)
        if (w.find(text) != std::string::npos) return true;
    return false;
}

double floorLight(const LevelLighting& lit, const Vec3& p) {
    std::string error;
    const std::optional<LightReading> r = readLight(lit, p, Vec3::UnitZ(), error);
    EXPECT_TRUE(r) << error;
    return r ? r->light : -1;
}

TEST(LightHostile, BadNumbersAreRefusedWithWarnings) {
    const LitLevel level = readLevel(room({
        "\"origin\" \"64 64 64\"\n\"light\" \"nan\"\n",
        "\"origin\" \"64 64 64\"\n\"light\" \"inf\"\n",
        "\"origin\" \"64 64 64\"\n\"light\" \"1e400\"\n",
        "\"origin\" \"64 64 64\"\n\"light\" \"1e12\"\n",
        "\"origin\" \"nan 64 64\"\n",
        "\"origin\" \"64 64 64\"\n\"_color\" \"nan 1 1\"\n\"wait\" \"-3\"\n\"delay\" \"9\"\n\"style\" \"900\"\n"
        "\"mangle\" \"1e300 0 0\"\n\"target\" \"nowhere\"\n",
        "\"origin\" \"64 64 100\"\n\"mangle\" \"0 -90 0\"\n\"angle\" \"nan\"\n",
    }, "\"light\" \"nan\"\n\"_sunlight\" \"inf\"\n\"_sun_mangle\" \"0 nan 0\"\n"));
    const LevelLighting lit = lightWithTree(level);
    for (const char* text : {"\"light\" \"nan\"", "\"light\" \"inf\"", "\"light\" \"1e400\"", "\"light\" \"1e12\"",
                             "no valid \"origin\"", "\"color\" \"nan 1 1\"", "\"delay\"", "\"style\"", "\"angle\" \"nan\"",
                             "\"mangle\"", "matches no entity", "\"sunlight\" \"inf\"", "\"sun_mangle\""})
        EXPECT_TRUE(anyWarningHas(lit, text)) << text;
    for (const std::string& w : lit.warnings) EXPECT_TRUE(w.starts_with("room.map:")) << w;
    // Only the last two lights are kept: their bad keys replaced by the defaults.
    ASSERT_EQ(lit.stats.lights, 2u);
    const double v = floorLight(lit, {64, 64, 0});
    EXPECT_GT(v, 0);
    EXPECT_TRUE(std::isfinite(v));
}

TEST(LightHostile, AMillionUnitLightLightsEverythingItSees) {
    const LitLevel level = readLevel(room({"\"origin\" \"64 64 64\"\n\"light\" \"1000000\"\n"}));
    const LevelLighting lit = lightWithTree(level);
    EXPECT_TRUE(lit.warnings.empty());
    EXPECT_DOUBLE_EQ(floorLight(lit, {10, 10, 0}), 255);
    EXPECT_DOUBLE_EQ(floorLight(lit, {120, 64, 0}), 255);
    // The outside of the room has no lightmap (qbsp leaves it out).
    std::string error;
    EXPECT_FALSE(readLight(lit, {64, 64, -16}, -Vec3::UnitZ(), error));
    EXPECT_NE(error.find("void outside"), std::string::npos) << error;
}

// A level with a hole: qbsp would report the leak and keep every face; so does the light.
TEST(LightHostile, ALeakingLevelLightsEveryFace) {
    std::string m = room({"\"origin\" \"64 64 64\"\n"});
    const std::string wall = boxBrushText({128, -16, 0}, {144, 144, 128}, "wall", {"0 0 0 1 1"});
    m.erase(m.find(wall), wall.size());
    const LevelLighting lit = lightWithTree(readLevel(m));
    EXPECT_TRUE(anyWarningHas(lit, "leaks"));
    EXPECT_EQ(lit.stats.outsideFaces, 0u);
    std::string error;
    EXPECT_TRUE(readLight(lit, {64, 64, -16}, -Vec3::UnitZ(), error)) << error;
}

TEST(LightHostile, TenThousandLightsFinish) {
    Rng rng(10000);
    std::vector<std::string> lights;
    for (int i = 0; i < 10000; ++i) {
        std::ostringstream l;
        l << "\"origin\" \"" << uniform(rng, 1, 127) << " " << uniform(rng, 1, 127) << " " << uniform(rng, 1, 127)
          << "\"\n\"light\" \"" << int(uniform(rng, 20, 60)) << "\"\n";
        lights.push_back(l.str());
    }
    const LitLevel level = readLevel(room(lights));
    const auto start = std::chrono::steady_clock::now();
    const LevelLighting lit = lightWithTree(level);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(lit.stats.lights, 10000u);
    EXPECT_GT(lit.stats.rays, 100000u);
    EXPECT_DOUBLE_EQ(floorLight(lit, {64, 64, 0}), 255); // thousands of lights add up
    RecordProperty("seconds", std::to_string(seconds));
}

TEST(LightHostile, DegenerateFacesAndTextureAxes) {
    std::string m = room({"\"origin\" \"64 64 64\"\n"});
    // A brush with no thickness (a zero-area face pair) and one whose faces' Valve axes are
    // parallel: the first is left out, the second's faces are left unlit, with warnings.
    m.insert(m.rfind("}\n{\n\"classname\" \"light\""),
             boxBrushText({32, 32, 0}, {32, 64, 32}, "thin", {"0 0 0 1 1"}) +
                 boxBrushText({80, 80, 0}, {96, 96, 16}, "crate", {"[ 1 0 0 0 ] [ 1 0 0 0 ] 0 1 1"}));
    LitLevel level = readLevel(m);
    // A side with texture parameters that do not read.
    level.world.brushes[2].sides[1].textureParams = "not numbers";
    const LevelLighting lit = lightWithTree(level);
    EXPECT_TRUE(anyWarningHas(lit, "perpendicular")) << (lit.warnings.empty() ? "" : lit.warnings.front());
    EXPECT_TRUE(anyWarningHas(lit, "texture parameters \"not numbers\""));
    EXPECT_GT(floorLight(lit, {64, 64, 0}), 0);
}

} // namespace
