// Relighting after a brush edit (light/brush_relight.h) equals lighting the edited level
// from scratch, and keeps the lightmaps of the faces the edit cannot reach.
#include "light_level.h"

#include "light/brush_relight.h"

#include <sstream>

using namespace shallot;
using namespace shallot::test;

namespace {

// A room under a sky (with `sun`: a sun from yaw `sunYaw`, pitch `sunPitch` degrees), split by
// a divider, with four lights (unless `lights` is false) and a crate at `crate` of size
// `crateSize`.
std::string level(const Vec3& crate, bool sun, double sunYaw = 30, double sunPitch = -60, const Vec3& crateSize = {48, 48, 64},
                  bool lights = true) {
    std::ostringstream m;
    m << "{\n\"classname\" \"worldspawn\"\n";
    if (sun) m << "\"_sunlight\" \"150\"\n\"_sun_mangle\" \"" << sunYaw << " " << sunPitch << " 0\"\n";
    const std::vector<std::string> p{"0 0 0 1 1", "[ 1 0 0 3 ] [ 0 0 -1 5 ] 0 1 1", "7 9 30 0.5 2"};
    // Two floor brushes: the crate cuts the floor face it stands on (the union's pieces
    // change), not the far one.
    m << boxBrushText({-16, -16, -16}, {508, 528, 0}, "floor", p);
    m << boxBrushText({508, -16, -16}, {1040, 528, 0}, "floor", p);
    m << boxBrushText({-16, -16, 192}, {1040, 528, 208}, sun ? "sky1" : "ceiling", p);
    m << boxBrushText({-16, -16, 0}, {0, 528, 192}, "wall", p);
    m << boxBrushText({1024, -16, 0}, {1040, 528, 192}, "wall", p);
    m << boxBrushText({0, -16, 0}, {1024, 0, 192}, "wall", p);
    m << boxBrushText({0, 512, 0}, {1024, 528, 192}, "wall", p);
    m << boxBrushText({500, -16, 0}, {516, 400, 192}, "divider", p);
    m << boxBrushText(crate, crate + crateSize, "crate", p);
    m << "}\n";
    for (const Vec3& o : {Vec3(100, 100, 100), Vec3(300, 400, 150), Vec3(800, 200, 120), Vec3(900, 450, 60)})
        if (lights)
            m << "{\n\"classname\" \"light\"\n\"origin\" \"" << o.x() << " " << o.y() << " " << o.z()
              << "\"\n\"light\" \"220\"\n}\n";
    return m.str();
}

struct Lit {
    LitLevel level;
    CompileResult compiled;
    LevelLighting lighting;
};

Lit lightFresh(const std::string& text) {
    Lit l{readLevel(text), {}, {}};
    World shadow = l.level.world;
    shadow.poses = {l.level.world.poses[size_t(pointPoseIndex(l.level.world.poses))]};
    l.compiled = compileWorld(shadow);
    l.lighting = lightLevelInTree(lightInput(l.level), l.compiled.onion, 0, 2);
    return l;
}

void expectSame(const LevelLighting& a, const LevelLighting& b) {
    ASSERT_EQ(a.faces.size(), b.faces.size());
    for (size_t f = 0; f < a.faces.size(); ++f) {
        ASSERT_EQ(a.lightmaps[f].styles.size(), b.lightmaps[f].styles.size()) << f;
        for (size_t s = 0; s < a.lightmaps[f].styles.size(); ++s)
            ASSERT_EQ(a.lightmaps[f].styles[s].rgb, b.lightmaps[f].styles[s].rgb) << "face " << f;
    }
}

TEST(LightBrushRelight, IncrementalEqualsFull) {
    for (bool sun : {false, true}) {
        const Vec3 from(200, 200, 0), to(232, 248, 0);
        const Lit before = lightFresh(level(from, sun));
        const Lit after = lightFresh(level(to, sun));
        Aabb region;
        region.add(Aabb{from, from + Vec3(48, 48, 64)});
        region.add(Aabb{to, to + Vec3(48, 48, 64)});
        const LevelLighting relit =
            relightAfterBrushEdit(before.lighting, lightInput(after.level), after.compiled.onion, 0, region, 2);
        expectSame(relit, after.lighting);
        // The far half of the room, behind the divider, keeps its lightmaps; with a sun, the
        // box swept by the sun rays of a face reaches the crate from most faces (the test is
        // by boxes: a few faces only).
        EXPECT_GE(relit.stats.reusedFaces, sun ? 1u : 4u) << sun;
        EXPECT_LT(relit.stats.reusedFaces, relit.stats.lightmappedFaces / 2) << sun;
    }
}

// Random crates moved by random steps in the room, lit by its lights, a sun from a random
// direction or both: every relight equals a full lighting of the edited level (the tests of
// which faces a light's or a sun's rays from the luxels can cross the edit decide what is
// kept), and faces are kept.
TEST(LightBrushRelight, RandomEditsEqualFull) {
    Rng rng(4141);
    size_t reused = 0, lit = 0;
    for (int c = 0; c < 24; ++c) {
        SCOPED_TRACE("case " + std::to_string(c));
        const bool sun = c % 4 != 0, lights = c % 4 != 1 && c % 4 != 2;
        const double yaw = uniform(rng, 0, 360), pitch = -uniform(rng, 10, 85);
        const Vec3 size(uniform(rng, 16, 96), uniform(rng, 16, 96), uniform(rng, 16, 128));
        const Vec3 from(uniform(rng, 16, 900), uniform(rng, 16, 400), 0);
        const Vec3 to = from + Vec3(16 * double(int(rng() % 7) - 3), 16 * double(int(rng() % 7) - 3), 0);
        const Lit before = lightFresh(level(from, sun, yaw, pitch, size, lights));
        const Lit after = lightFresh(level(to, sun, yaw, pitch, size, lights));
        Aabb region;
        region.add(Aabb{from, from + size});
        region.add(Aabb{to, to + size});
        const LevelLighting relit =
            relightAfterBrushEdit(before.lighting, lightInput(after.level), after.compiled.onion, 0, region, 1 + c % 2);
        expectSame(relit, after.lighting);
        reused += relit.stats.reusedFaces;
        lit += relit.stats.lightmappedFaces;
    }
    EXPECT_GT(reused, lit / 5);
    std::printf("%zu of %zu lit faces kept\n", reused, lit);
}

} // namespace
