// The bounce (light/bounce.h): through the tree as with every brush tested directly; light
// only ever added, more with each bounce; nothing where no direct light falls anywhere.
#include "light_level.h"

#include "light/bounce.h"

using namespace shallot;
using namespace shallot::test;

namespace {

std::string room(const std::string& lights) {
    std::string m = "{\n\"classname\" \"worldspawn\"\n";
    const std::vector<std::string> p{"0 0 0 1 1", "5 3 15 1 0.5"};
    m += boxBrushText({-16, -16, -16}, {400, 400, 0}, "floor", p);
    m += boxBrushText({-16, -16, 192}, {400, 400, 208}, "ceiling", p);
    m += boxBrushText({-16, -16, 0}, {0, 400, 192}, "wall", p);
    m += boxBrushText({384, -16, 0}, {400, 400, 192}, "wall", p);
    m += boxBrushText({0, -16, 0}, {384, 0, 192}, "wall", p);
    m += boxBrushText({0, 384, 0}, {384, 400, 192}, "wall", p);
    m += boxBrushText({160, 0, 0}, {176, 300, 192}, "divider", p); // half the room sees the light only by bounces
    m += boxBrushText({256, 200, 0}, {320, 264, 96}, "crate", p);
    return m + "}\n" + lights;
}

TEST(LightBounce, TreeAndBruteForceAgree) {
    const LitLevel level = readLevel(room("{\n\"classname\" \"light\"\n\"origin\" \"280 100 150\"\n\"light\" \"400\"\n}\n"));
    const LevelLighting direct = lightWithTree(level);
    World shadow = level.world;
    shadow.poses = {level.world.poses[size_t(pointPoseIndex(level.world.poses))]};
    const CompileResult compiled = compileWorld(shadow);
    const SkyFaces sky(level.world.brushes, level.world.bounds);
    const TreeOccluder tree(compiled.onion, 0, sky);
    const BruteOccluder brute(level.world);
    LevelLighting once = direct, bruteOnce = direct, twice = direct;
    const BounceStats s = addBounce(once, tree, 1, 2);
    addBounce(bruteOnce, brute, 1, 2);
    addBounce(twice, tree, 2, 2);
    EXPECT_GT(s.patches, 20u);
    EXPECT_GT(s.rays, 100u);
    size_t raised = 0, luxels = 0, behindDivider = 0;
    for (size_t f = 0; f < direct.lightmaps.size(); ++f) {
        if (direct.lightmaps[f].styles.empty()) continue;
        const auto& d = direct.lightmaps[f].styles.front().light;
        const auto& a = once.lightmaps[f].styles.front().light;
        const auto& b = bruteOnce.lightmaps[f].styles.front().light;
        const auto& c = twice.lightmaps[f].styles.front().light;
        for (size_t i = 0; i < d.size(); ++i) {
            ++luxels;
            // Patch centres are sample points: a segment between them may graze a corner
            // the tree and brute force see within 1e-4 differently; rarely, by a little.
            EXPECT_NEAR(int(a[i]), int(b[i]), 2) << "face " << f << " luxel " << i;
            EXPECT_GE(a[i], d[i]);
            EXPECT_GE(c[i], a[i]);
            raised += a[i] > d[i];
            const Vec3& p = direct.lightmaps[f].samples[i];
            if (p.x() < 150 && p.y() < 290 && d[i] == 0 && a[i] > 0) ++behindDivider;
        }
    }
    EXPECT_GT(raised, luxels / 3);
    EXPECT_GT(behindDivider, 20u); // light reached where no light shines, by a bounce
}

// A newer edit cancels a running bounce (the editor's light service): a set token stops it
// with CompileCancelled and leaves the lighting as it was; a token never set changes nothing.
TEST(LightBounce, CancelledStopsUncancelledUnchanged) {
    const LitLevel level = readLevel(room("{\n\"classname\" \"light\"\n\"origin\" \"280 100 150\"\n\"light\" \"400\"\n}\n"));
    const LevelLighting direct = lightWithTree(level);
    const BruteOccluder brute(level.world);
    LevelLighting plain = direct, watched = direct, cancelled = direct;
    CancelToken idle, set;
    set.cancelled = true;
    const BounceStats a = addBounce(plain, brute, 2, 2);
    const BounceStats b = addBounce(watched, brute, 2, 2, nullptr, &idle);
    EXPECT_EQ(a.rays, b.rays);
    EXPECT_THROW(addBounce(cancelled, brute, 2, 2, nullptr, &set), CompileCancelled);
    size_t raised = 0;
    for (size_t f = 0; f < direct.lightmaps.size(); ++f)
        for (size_t s = 0; s < direct.lightmaps[f].styles.size(); ++s) {
            EXPECT_EQ(plain.lightmaps[f].styles[s].rgb, watched.lightmaps[f].styles[s].rgb) << "face " << f;
            EXPECT_EQ(plain.lightmaps[f].styles[s].light, watched.lightmaps[f].styles[s].light) << "face " << f;
            EXPECT_EQ(cancelled.lightmaps[f].styles[s].rgb, direct.lightmaps[f].styles[s].rgb) << "face " << f;
            EXPECT_EQ(cancelled.lightmaps[f].styles[s].light, direct.lightmaps[f].styles[s].light) << "face " << f;
            raised += plain.lightmaps[f].styles[s].light != direct.lightmaps[f].styles[s].light;
        }
    EXPECT_GT(raised, 0u); // the bounce did add light: the comparisons above can fail
}

TEST(LightBounce, NothingToBounceInTheDark) {
    const LitLevel level = readLevel(room(""));
    LevelLighting lit = lightWithTree(level);
    const BruteOccluder brute(level.world);
    const BounceStats s = addBounce(lit, brute, 3, 2);
    EXPECT_EQ(s.rays, 0u);
    for (const FaceLightmap& m : lit.lightmaps)
        for (const StyleLightmap& st : m.styles)
            for (uint8_t v : st.light) EXPECT_EQ(v, 0);
}

} // namespace
