// Coarse first, then full resolution (light/coarse_lattice.h, light/refine_lighting.h):
// the coarse lattice luxels are the full lighting's, the luxels between are bilinear, a
// coarse pass refined equals the full pass (from scratch, after a light edit and after a
// brush edit), and a pass whose token is set stops early with CompileCancelled.
#include "light_level.h"

#include "light/brush_relight.h"
#include "light/coarse_lattice.h"
#include "light/coarse_suns.h"
#include "light/refine_lighting.h"
#include "light/relight.h"

#include <atomic>
#include <sstream>

using namespace shallot;
using namespace shallot::test;

namespace {

// A room with a sun through a sky ceiling, a pillar, a crate and point lights, and (`dirt`)
// dirt and a sky dome: every kind of ray the coarse pass traces.
std::string room(const Vec3& crate, const std::vector<Vec3>& lights, bool dirt = true) {
    std::ostringstream m;
    m << "{\n\"classname\" \"worldspawn\"\n\"_sunlight\" \"120\"\n\"_sun_mangle\" \"30 -60 0\"\n";
    if (dirt) m << "\"_dirt\" \"1\"\n\"_sunlight2\" \"100\"\n";
    const std::vector<std::string> p{"0 0 0 1 1", "[ 1 0 0 3 ] [ 0 0 -1 5 ] 0 1 1", "7 9 30 0.5 2"};
    m << boxBrushText({-16, -16, -16}, {1040, 528, 0}, "floor", p);
    m << boxBrushText({-16, -16, 192}, {1040, 528, 208}, "sky1", p);
    m << boxBrushText({-16, -16, 0}, {0, 528, 192}, "wall", p);
    m << boxBrushText({1024, -16, 0}, {1040, 528, 192}, "wall", p);
    m << boxBrushText({0, -16, 0}, {1024, 0, 192}, "wall", p);
    m << boxBrushText({0, 512, 0}, {1024, 528, 192}, "wall", p);
    m << boxBrushText({500, -16, 0}, {516, 400, 160}, "divider", p);
    m << boxBrushText(crate, crate + Vec3(48, 48, 64), "crate", p);
    m << "}\n";
    for (const Vec3& o : lights)
        m << "{\n\"classname\" \"light\"\n\"origin\" \"" << o.x() << " " << o.y() << " " << o.z() << "\"\n\"light\" \"220\"\n}\n";
    return m.str();
}

const std::vector<Vec3> kLights{{100, 100, 100}, {300, 400, 150}, {800, 200, 120}, {900, 450, 60}};

struct Lit {
    LitLevel level;
    CompileResult compiled;
};

Lit compiled(const std::string& text) {
    Lit l{readLevel(text), {}};
    World shadow = l.level.world;
    shadow.poses = {l.level.world.poses[size_t(pointPoseIndex(l.level.world.poses))]};
    l.compiled = compileWorld(shadow);
    EXPECT_TRUE(l.compiled.error.empty()) << l.compiled.error;
    return l;
}

void expectSame(const LevelLighting& a, const LevelLighting& b) {
    ASSERT_EQ(a.faces.size(), b.faces.size());
    for (size_t f = 0; f < a.faces.size(); ++f) {
        ASSERT_EQ(a.lightmaps[f].stride, 1) << f;
        ASSERT_EQ(a.lightmaps[f].samples, b.lightmaps[f].samples) << f;
        ASSERT_EQ(a.lightmaps[f].styles.size(), b.lightmaps[f].styles.size()) << f;
        for (size_t s = 0; s < a.lightmaps[f].styles.size(); ++s) {
            ASSERT_EQ(a.lightmaps[f].styles[s].rgb, b.lightmaps[f].styles[s].rgb) << "face " << f;
            ASSERT_EQ(a.lightmaps[f].styles[s].light, b.lightmaps[f].styles[s].light) << "face " << f;
        }
    }
}

// An occluder that sets a token after `after` segment tests (a newer edit arriving
// mid-pass) and counts the tests made after that.
class CancellingOccluder final : public LightOccluder {
public:
    CancellingOccluder(const LightOccluder& inner, CancelToken& token, size_t after) : inner_(inner), token_(token), after_(after) {}
    bool blocked(const Vec3& a, const Vec3& b) const override { return count(), inner_.blocked(a, b); }
    bool reachesSky(const Vec3& a, const Vec3& d) const override { return count(), inner_.reachesSky(a, d); }
    double openDistance(const Vec3& a, const Vec3& d, double l) const override { return count(), inner_.openDistance(a, d, l); }
    bool nearSolid(const Vec3& p, double m) const override { return inner_.nearSolid(p, m); }
    size_t tests() const { return tests_; }

private:
    void count() const {
        if (++tests_ == after_) token_.cancelled = true;
    }
    const LightOccluder& inner_;
    CancelToken& token_;
    size_t after_;
    mutable std::atomic<size_t> tests_{0};
};

} // namespace

TEST(LightCoarse, LatticeLinesAndBilinearExpansion) {
    EXPECT_EQ(latticeLines(1, 4), (std::vector<int>{0}));
    EXPECT_EQ(latticeLines(5, 4), (std::vector<int>{0, 4}));
    EXPECT_EQ(latticeLines(7, 4), (std::vector<int>{0, 4, 6}));
    EXPECT_EQ(latticeLines(3, 1), (std::vector<int>{0, 1, 2}));
    Rng rng(41);
    for (int trial = 0; trial < 200; ++trial) {
        const int width = 1 + int(rng() % 19), height = 1 + int(rng() % 19), stride = 1 + int(rng() % 6);
        const std::vector<int> columns = latticeLines(width, stride), rows = latticeLines(height, stride);
        // A bilinear function of (i, j) per lattice cell is reproduced exactly: here one
        // bilinear over the whole grid, and at the lattice luxels any values are kept.
        const Vec3 a(uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5));
        const Vec3 b(uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5));
        const Vec3 c(uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5));
        const auto f = [&](int i, int j) -> Vec3 { return a * i + b * j + c * (i * j); };
        std::vector<Vec3> values;
        for (int j : rows)
            for (int i : columns) values.push_back(f(i, j));
        const std::vector<Vec3> out = expandLattice(values, columns, rows, width, height);
        ASSERT_EQ(out.size(), size_t(width * height));
        for (int j = 0; j < height; ++j)
            for (int i = 0; i < width; ++i) ASSERT_LT((out[size_t(j * width + i)] - f(i, j)).norm(), 1e-9) << i << " " << j;
        for (size_t r = 0; r < rows.size(); ++r)
            for (size_t q = 0; q < columns.size(); ++q)
                ASSERT_EQ(out[size_t(rows[r] * width + columns[q])], values[r * columns.size() + q]);
    }
}

// Without dirt and domes the coarse pass traces the full pass's rays at the lattice luxels.
TEST(LightCoarse, LatticeLuxelsAreTheFullLightsAndFewerRaysAreTraced) {
    const Lit l = compiled(room({200, 200, 0}, kLights, false));
    const LevelLighting full = lightLevelInTree(lightInput(l.level), l.compiled.onion, 0, 2);
    const LevelLighting coarse = lightLevelInTree(lightInput(l.level), l.compiled.onion, 0, 2, 0, LightPass{kCoarseLuxelStride});
    ASSERT_EQ(coarse.faces.size(), full.faces.size());
    EXPECT_LT(coarse.stats.rays * 2, full.stats.rays);
    size_t between = 0;
    for (size_t f = 0; f < full.faces.size(); ++f) {
        const FaceLightmap &c = coarse.lightmaps[f], &m = full.lightmaps[f];
        ASSERT_EQ(c.styles.size(), m.styles.size()) << f;
        if (m.styles.empty()) continue;
        EXPECT_EQ(c.stride, kCoarseLuxelStride);
        const int w = m.grid.width();
        const std::vector<int> columns = latticeLines(w, kCoarseLuxelStride), rows = latticeLines(m.grid.height(), kCoarseLuxelStride);
        for (size_t s = 0; s < m.styles.size(); ++s) {
            ASSERT_EQ(c.styles[s].light.size(), m.styles[s].light.size());
            for (int j : rows)
                for (int i : columns) {
                    const size_t k = size_t(j * w + i);
                    ASSERT_EQ(c.styles[s].light[k], m.styles[s].light[k]) << "face " << f << " luxel " << i << " " << j;
                    ASSERT_EQ(c.samples[k], m.samples[k]);
                }
            between += c.styles[s].light.size() - columns.size() * rows.size();
        }
    }
    EXPECT_GT(between, 0u);
    const CoarseShare share = coarseShare(coarse);
    EXPECT_EQ(share.faces, coarse.stats.lightmappedFaces);
    EXPECT_EQ(share.luxels, coarse.stats.luxels);
    EXPECT_EQ(share.luxels - share.latticeLuxels, between);
}

TEST(LightCoarse, CoarseSunsMergeADomeKeepingItsLight) {
    const LightSettings settings =
        readLightEntities(readLevel(room({200, 200, 0}, kLights)).map.entities, "room.map").settings;
    ASSERT_EQ(settings.suns.size(), 66u); // the sun and the dome's 65
    const std::vector<SunLight> coarse = coarseSuns(settings.suns);
    EXPECT_EQ(coarse.size(), 10u);         // the sun alone, the dome in eights
    EXPECT_EQ(coarse[0].towardSun, settings.suns[0].towardSun); // alone: as it is
    EXPECT_EQ(coarse[0].light, settings.suns[0].light);
    double full = 0, merged = 0;
    for (const SunLight& s : settings.suns) full += s.light;
    for (const SunLight& s : coarse) {
        merged += s.light;
        EXPECT_NEAR(s.towardSun.norm(), 1.0, 1e-12);
        EXPECT_GT(s.towardSun.z(), 0.0); // a dome over the level: every sun above
    }
    EXPECT_NEAR(merged, full, 1e-9);
    // Unlike suns (another colour) are not merged.
    std::vector<SunLight> mixed = settings.suns;
    mixed[3].color = Vec3(1, 0, 0);
    EXPECT_GT(coarseSuns(mixed).size(), coarse.size());
}

TEST(LightCoarse, RefinedEqualsFullAfterEveryKindOfEdit) {
    const Vec3 crate(200, 200, 0), moved(232, 248, 0);
    const Lit before = compiled(room(crate, kLights));
    const LevelLighting fullBefore = lightLevelInTree(lightInput(before.level), before.compiled.onion, 0, 2);
    const SkyFaces skyBefore(before.level.world.brushes, before.level.world.bounds);
    const TreeOccluder occluderBefore(before.compiled.onion, 0, skyBefore);
    const LightPass coarse{kCoarseLuxelStride};

    // From scratch.
    LevelLighting scratch = lightLevelInTree(lightInput(before.level), before.compiled.onion, 0, 2, 0, coarse);
    const RefineStats r = refineCoarseFaces(scratch, occluderBefore, 2);
    EXPECT_EQ(r.faces, fullBefore.stats.lightmappedFaces);
    EXPECT_EQ(coarseShare(scratch).faces, 0u);
    expectSame(scratch, fullBefore);

    // A light moved: the relit faces coarse, the others kept in full; refined, the full light.
    std::vector<Vec3> lights = kLights;
    lights[1] = {340, 380, 120};
    const LitLevel edited = readLevel(room(crate, lights));
    LevelLighting relit = fullBefore;
    const RelightStats s = relightChangedLights(relit, readLightEntities(edited.map.entities, "room.map"), occluderBefore, 2, coarse);
    EXPECT_EQ(coarseShare(relit).faces, s.faces);
    EXPECT_LT(s.faces, fullBefore.stats.lightmappedFaces);
    refineCoarseFaces(relit, occluderBefore, 2);
    expectSame(relit, lightLevelInTree(lightInput(edited), before.compiled.onion, 0, 2));

    // A brush moved: the faces near it coarse; refined, the full light of the edited level.
    const Lit after = compiled(room(moved, kLights));
    Aabb region{crate, crate + Vec3(48, 48, 64)};
    region.add(Aabb{moved, moved + Vec3(48, 48, 64)});
    LevelLighting brushRelit = relightAfterBrushEdit(fullBefore, lightInput(after.level), after.compiled.onion, 0, region, 2, coarse);
    EXPECT_GT(brushRelit.stats.reusedFaces, 0u);
    EXPECT_EQ(coarseShare(brushRelit).faces, brushRelit.stats.lightmappedFaces - brushRelit.stats.reusedFaces);
    const SkyFaces skyAfter(after.level.world.brushes, after.level.world.bounds);
    const TreeOccluder occluderAfter(after.compiled.onion, 0, skyAfter);
    refineCoarseFaces(brushRelit, occluderAfter, 2);
    expectSame(brushRelit, lightLevelInTree(lightInput(after.level), after.compiled.onion, 0, 2));
}

TEST(LightCoarse, ASetTokenStopsEachPassEarly) {
    const Lit l = compiled(room({200, 200, 0}, kLights));
    const SkyFaces sky(l.level.world.brushes, l.level.world.bounds);
    const TreeOccluder occluder(l.compiled.onion, 0, sky);
    const LevelLighting full = lightLevelInTree(lightInput(l.level), l.compiled.onion, 0, 2);
    const size_t allTests = full.stats.rays + full.stats.sampleTests;
    for (int threads : {1, 2}) {
        // Set before: nothing is lit.
        CancelToken set;
        set.cancelled = true;
        EXPECT_THROW(lightLevel(lightInput(l.level), occluder, threads, {}, {}, LightPass{1, &set}), CompileCancelled);
        LevelLighting coarse = lightLevel(lightInput(l.level), occluder, threads, {}, {}, LightPass{kCoarseLuxelStride});
        EXPECT_THROW(refineCoarseFaces(coarse, occluder, threads, &set), CompileCancelled);
        LevelLighting relit = full;
        EXPECT_THROW(relightChangedLights(relit, readLightEntities(readLevel(room({200, 200, 0}, {{90, 90, 90}})).map.entities, "room.map"),
                                          occluder, threads, LightPass{1, &set}),
                     CompileCancelled);

        // Set mid-pass (after a tenth of the tests): the faces started end, no other starts.
        CancelToken token;
        const CancellingOccluder cancelling(occluder, token, allTests / 10);
        EXPECT_THROW(lightLevel(lightInput(l.level), cancelling, threads, {}, {}, LightPass{1, &token}), CompileCancelled);
        EXPECT_TRUE(token.cancelled);
        EXPECT_LT(cancelling.tests(), allTests / 2) << threads;
    }
}
