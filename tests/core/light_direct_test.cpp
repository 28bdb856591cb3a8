// Quake's direct light against brute force: random lit rooms (pillars, a ramp, a door, a
// sky ceiling with sunlight, point lights of every formula, spotlights, colours, styles,
// minlight), lit through the point pose's tree, against every luxel recomputed plainly
// from the formulas of id's and ericw-tools' light with every brush tested directly for
// shadows (no tree).
#include "light_level.h"

#include "light/dirt.h"
#include "light/light_formula.h"
#include "light/sample_points.h"

#include <cmath>

using namespace shallot;
using namespace shallot::test;

namespace {

std::string randomParams(Rng& rng) {
    std::ostringstream s;
    if (rng() % 3 == 0) { // Valve 220: axes in the face's plane or not, as editors write them
        const Vec3 u = randomUnit(rng), v = randomUnit(rng);
        s << "[ " << u.x() << " " << u.y() << " " << u.z() << " " << int(rng() % 64) << " ] [ " << v.x() << " " << v.y()
          << " " << v.z() << " " << int(rng() % 64) << " ] 0 " << (rng() % 2 ? 1 : 0.5) << " " << (rng() % 2 ? 1 : 2);
    } else {
        const int rotations[] = {0, 90, 180, 270, 30, 45};
        const double scales[] = {1, 0.5, 2, -1};
        s << int(rng() % 64) << " " << int(rng() % 64) << " " << rotations[rng() % 6] << " " << scales[rng() % 4] << " "
          << scales[rng() % 4];
    }
    return s.str();
}

double snap8(double v) { return std::round(v / 8) * 8; }

// A room [0, W] x [0, D] x [0, H] with 16-unit walls, pillars and a ramp, lights inside.
std::string randomRoom(Rng& rng, bool& hasSun) {
    const double w = snap8(uniform(rng, 160, 384)), d = snap8(uniform(rng, 160, 384)), h = snap8(uniform(rng, 128, 256));
    const auto params = [&] { return std::vector<std::string>{randomParams(rng), randomParams(rng), randomParams(rng)}; };
    hasSun = rng() % 3 == 0;
    std::ostringstream m;
    m << "{\n\"classname\" \"worldspawn\"\n";
    if (rng() % 3 == 0) m << "\"light\" \"" << int(uniform(rng, 5, 40)) << "\"\n";
    if (rng() % 3 == 0) m << "\"_dirt\" \"1\"\n\"_dirtdepth\" \"" << int(uniform(rng, 32, 160)) << "\"\n";
    if (hasSun && rng() % 2) m << "\"_sunlight2\" \"" << int(uniform(rng, 50, 300)) << "\"\n";
    if (hasSun) {
        m << "\"_sunlight\" \"" << int(uniform(rng, 50, 300)) << "\"\n\"_sun_mangle\" \"" << int(uniform(rng, 0, 360))
          << " " << -int(uniform(rng, 30, 90)) << " 0\"\n";
        if (rng() % 2) m << "\"_sunlight_color\" \"255 200 150\"\n";
    }
    m << boxBrushText({-16, -16, -16}, {w + 16, d + 16, 0}, "floor", params());
    m << boxBrushText({-16, -16, h}, {w + 16, d + 16, h + 16}, hasSun ? "sky1" : "ceiling", params());
    m << boxBrushText({-16, -16, 0}, {0, d + 16, h}, "wall", params());
    m << boxBrushText({w, -16, 0}, {w + 16, d + 16, h}, "wall", params());
    m << boxBrushText({0, -16, 0}, {w, 0, h}, "wall", params());
    m << boxBrushText({0, d, 0}, {w, d + 16, h}, "wall", params());
    if (hasSun) { // an opening in the ceiling would need a sky box; the sky ceiling lets the sun in through itself
    }
    const int pillars = 1 + int(rng() % 4);
    for (int i = 0; i < pillars; ++i) {
        const Vec3 lo(snap8(uniform(rng, 16, w - 48)), snap8(uniform(rng, 16, d - 48)), 0);
        const Vec3 size(snap8(uniform(rng, 16, 64)), snap8(uniform(rng, 16, 64)), snap8(uniform(rng, 24, h)));
        m << boxBrushText(lo, lo + size, "pillar", params());
    }
    // A ramp: a wedge with a sloped top (non-axial faces).
    const double rx = snap8(uniform(rng, 16, w - 96)), ry = snap8(uniform(rng, 16, d - 64));
    m << "{\n( " << rx << " " << ry << " 0 ) ( " << rx << " " << ry + 48 << " 0 ) ( " << rx << " " << ry << " 1 ) ramp "
      << randomParams(rng) << "\n";
    m << "( " << rx << " " << ry << " 0 ) ( " << rx << " " << ry << " 1 ) ( " << rx + 1 << " " << ry << " 0 ) ramp "
      << randomParams(rng) << "\n";
    m << "( " << rx << " " << ry + 48 << " 0 ) ( " << rx + 1 << " " << ry + 48 << " 0 ) ( " << rx << " " << ry + 48
      << " 1 ) ramp " << randomParams(rng) << "\n";
    m << "( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) ramp " << randomParams(rng) << "\n";
    m << "( " << rx << " " << ry << " 40 ) ( " << rx << " " << ry + 1 << " 40 ) ( " << rx + 80 << " " << ry << " 0 ) ramp "
      << randomParams(rng) << "\n}\n";
    m << "}\n";
    // A door: lit, casts no shadow.
    if (rng() % 2) {
        m << "{\n\"classname\" \"func_door\"\n";
        const Vec3 lo(snap8(uniform(rng, 16, w - 48)), snap8(uniform(rng, 16, d - 48)), 0);
        m << boxBrushText(lo, lo + Vec3(32, 8, 64), "door", params()) << "}\n";
    }
    const int lights = 1 + int(rng() % 6);
    for (int i = 0; i < lights; ++i) {
        const Vec3 o(uniform(rng, 4, w - 4), uniform(rng, 4, d - 4), uniform(rng, 4, h - 4));
        m << "{\n\"classname\" \"light\"\n\"origin\" \"" << o.x() << " " << o.y() << " " << o.z() << "\"\n";
        const int kind = int(rng() % 10);
        if (kind < 6) m << "\"light\" \"" << int(uniform(rng, 100, 600)) << "\"\n";
        else if (kind < 9) m << "\"light\" \"" << int(uniform(rng, 50, 300)) << "\"\n\"delay\" \"" << 1 + rng() % 5 << "\"\n";
        else m << "\"light\" \"-" << int(uniform(rng, 50, 150)) << "\"\n";
        if (rng() % 3 == 0) m << "\"wait\" \"" << uniform(rng, 0.5, 2) << "\"\n";
        if (rng() % 3 == 0) m << "\"_color\" \"" << int(rng() % 256) << " " << int(rng() % 256) << " " << int(rng() % 256) << "\"\n";
        if (rng() % 4 == 0) m << "\"style\" \"" << 1 + rng() % 11 << "\"\n";
        if (rng() % 4 == 0) m << "\"_anglescale\" \"" << uniform(rng, 0, 1) << "\"\n";
        if (rng() % 5 == 0) m << "\"_dirt\" \"" << (rng() % 2 ? "1" : "-1") << "\"\n";
        if (hasSun && rng() % 8 == 0) m << "\"_sun\" \"1\"\n";
        if (rng() % 4 == 0) {
            m << "\"mangle\" \"" << int(uniform(rng, 0, 360)) << " " << int(uniform(rng, -90, 0)) << " 0\"\n\"angle\" \""
              << int(uniform(rng, 20, 120)) << "\"\n";
            if (rng() % 2) m << "\"_softangle\" \"" << int(uniform(rng, 5, 30)) << "\"\n";
        } else if (rng() % 4 == 0) {
            m << "\"target\" \"spot" << i << "\"\n}\n{\n\"classname\" \"info_null\"\n\"targetname\" \"spot" << i
              << "\"\n\"origin\" \"" << uniform(rng, 0, w) << " " << uniform(rng, 0, d) << " 0\"\n";
        }
        m << "}\n";
    }
    return m.str();
}

double brightness(const Vec3& c) { return (c[0] + c[1] + c[2]) / 3.0; }

// A sample point this close to a brush's surface (a luxel exactly at a floor's level)
// starts rays along that surface: tree and brute force may each call them blocked. Such
// luxels are left out of the comparison (their sample points still must match).
constexpr double kSampleBoundaryMargin = 0.01;

// One luxel's colour sums per style, recomputed plainly.
std::map<int, Vec3> bruteLuxel(const Vec3& p, const Vec3& normal, const LightEntities& e, const BruteOccluder& occ,
                               double occlusion) {
    const DirtSettings& dirt = e.settings.dirt;
    const auto factor = [&](bool uses, double gain = 0, double scale = 0) {
        if (!uses || !e.settings.dirtInUse || occlusion <= 0) return 1.0;
        return 1 - std::min(1.0, std::min(1.0, std::pow(occlusion, gain > 0 ? gain : dirt.gain)) * (scale > 0 ? scale : dirt.scale));
    };
    std::map<int, Vec3> sums;
    sums[0] = Vec3::Zero();
    const auto pointLight = [&](const PointLight& l) {
        if (normal.dot(l.origin) - normal.dot(p) < -kSampleOffPlane) return; // behind the face's plane
        Vec3 dir = l.origin - p;
        double dist = dir.norm();
        if (dist < kMinLightDistance) dist = kMinLightDistance, dir = Vec3::UnitZ();
        else dir /= dist;
        const double cosine = dir.dot(normal);
        if (cosine < 0) return;
        double value;
        const double x = e.settings.scaledist * l.wait * dist;
        switch (l.formula) {
        case LightFormula::Linear: value = l.light > 0 ? std::max(0.0, l.light - x) : std::min(0.0, l.light + x); break;
        case LightFormula::Inverse: value = l.light * 128 / x; break;
        case LightFormula::InverseSquare: value = l.light * 128 * 128 / (x * x); break;
        case LightFormula::InverseSquareA: value = l.light * 128 * 128 / ((x + 128) * (x + 128)); break;
        default: value = l.light;
        }
        value *= (1 - l.anglescale) + l.anglescale * cosine;
        if (l.spotlight) {
            const double c = l.spotDirection.dot(dir);
            if (c > l.spotOuterCos) return;
            if (c > l.spotInnerCos) value *= 1 - (c - l.spotInnerCos) / (l.spotOuterCos - l.spotInnerCos);
        }
        const bool dirty = l.dirt == 1 || (l.dirt == 0 && dirt.all);
        const Vec3 color = l.color * value / 255 * factor(dirty, l.dirtGain, l.dirtScale);
        if (std::abs(brightness(color)) <= kLightGate || occ.blocked(p, l.origin)) return;
        if (!sums.contains(l.style)) sums[l.style] = Vec3::Zero();
        sums[l.style] += color;
    };
    const auto suns = [&](bool negative) {
        for (const SunLight& s : e.settings.suns) {
            if ((s.light < 0) != negative || s.towardSun.dot(normal) < -0.01) continue;
            const Vec3 color = s.color * ((1 - s.anglescale) + s.anglescale * std::max(0.0, s.towardSun.dot(normal))) *
                               s.light / 255 * factor(s.dirt);
            if (std::abs(brightness(color)) > kLightGate && occ.reachesSky(p, s.towardSun)) {
                if (!sums.contains(s.style)) sums[s.style] = Vec3::Zero();
                sums[s.style] += color;
            }
        }
    };
    for (const PointLight& l : e.lights)
        if (l.light > 0 && l.formula != LightFormula::LocalMinimum) pointLight(l);
    suns(false);
    for (const PointLight& l : e.lights) { // delay 4: raise to the light's value where it is seen
        if (l.formula != LightFormula::LocalMinimum || l.light <= 0) continue;
        Vec3& sum = sums.try_emplace(l.style, Vec3::Zero()).first->second;
        const bool dirty = l.dirt == 1 || (l.dirt == 0 && dirt.all);
        if (brightness(sum) < l.light && !occ.blocked(p, l.origin))
            sum = sum.cwiseMax(l.color * l.light * factor(dirty, l.dirtGain, l.dirtScale) / 255);
    }
    if (e.settings.minlight > 0)
        sums[0] = sums[0].cwiseMax(e.settings.minlightColor * e.settings.minlight * factor(dirt.minlight) / 255);
    for (const PointLight& l : e.lights)
        if (l.light < 0) pointLight(l);
    suns(true);
    return sums;
}

int scaledByte(const Vec3& sum, double rangescale) {
    return int(std::min(255.0, sum.cwiseMax(0.0).maxCoeff() * rangescale));
}

TEST(LightDirect, LuxelsMatchBruteForceInRandomRooms) {
    Rng rng(4101);
    size_t luxels = 0, lit = 0, shadowed = 0, sunlit = 0, skipped = 0;
    for (int room = 0; room < 30; ++room) {
        bool hasSun = false;
        const std::string text = randomRoom(rng, hasSun);
        const LitLevel level = readLevel(text);
        const LevelLighting lighting = lightWithTree(level);
        // Lights may fall inside a pillar (and stay there, with a warning): nothing else warns.
        for (const std::string& w : lighting.warnings) ASSERT_NE(w.find("in solid"), std::string::npos) << w;
        const BruteOccluder brute(level.world);
        LightEntities entities = readLightEntities(level.map.entities, "room.map");
        entities.lights = lighting.lights; // as nudged out of solid (light_nudge.h, tested below)
        ASSERT_GT(lighting.stats.lightmappedFaces, 20u);
        ASSERT_GT(lighting.stats.outsideFaces, 5u); // the rooms are sealed: their outsides are not lit
        for (size_t f = 0; f < lighting.faces.size(); ++f) {
            const LitFace& face = lighting.faces[f];
            const FaceLightmap& map = lighting.lightmaps[f];
            if (!face.lightmapped || face.outside) continue;
            ASSERT_FALSE(map.styles.empty());
            // Sample points: the same with every brush tested directly.
            const std::vector<Vec3> samples = samplePoints(map.grid, brute);
            ASSERT_EQ(samples.size(), map.samples.size());
            for (size_t i = 0; i < samples.size(); ++i) {
                ASSERT_EQ(samples[i], map.samples[i]) << "room " << room;
            }
            size_t dirtRays = 0;
            const std::vector<double> occlusion =
                entities.settings.dirtInUse ? sampleOcclusion(samples, face.plane.normal, entities.settings.dirt, brute, dirtRays)
                                            : std::vector<double>(samples.size(), 0.0);
            for (size_t i = 0; i < samples.size(); ++i) {
                if (brute.nearBoundary(samples[i], kSampleBoundaryMargin)) {
                    ++skipped;
                    continue;
                }
                const std::map<int, Vec3> sums = bruteLuxel(samples[i], face.plane.normal, entities, brute, occlusion[i]);
                ++luxels;
                for (const StyleLightmap& s : map.styles) {
                    const auto expected = sums.find(s.style);
                    const int want = expected == sums.end() ? 0 : scaledByte(expected->second, entities.settings.rangescale);
                    ASSERT_NEAR(int(s.light[i]), want, 1) << "room " << room << " face " << f << " luxel " << i << " style "
                                                          << s.style << " at " << samples[i].transpose() << "\n" << text;
                }
                lit += map.styles.front().light[i] > 0;
                // How many lit luxels some light in front misses (the rooms must have shadows).
                for (const PointLight& l : entities.lights)
                    if (map.styles.front().light[i] > 0 && face.plane.signedDistance(l.origin) > 2 &&
                        brute.blocked(samples[i], l.origin)) {
                        ++shadowed;
                        break;
                    }
                if (hasSun && !entities.settings.suns.empty() && brute.reachesSky(samples[i], entities.settings.suns[0].towardSun))
                    ++sunlit;
            }
        }
    }
    // Half the faces are the rooms' outsides, in the dark.
    EXPECT_GT(lit, luxels / 3);
    EXPECT_LT(skipped, luxels / 25);
    EXPECT_GT(shadowed, luxels / 50);
    EXPECT_GT(sunlit, luxels / 50);
}

// ericw-tools' nudge: a light on a floor moves 2 units up (not along x or y, where it stays
// on the floor); one deep in a wall stays, with a warning.
TEST(LightDirect, LightsOnFacesAreNudgedOut) {
    std::ostringstream m;
    m << "{\n\"classname\" \"worldspawn\"\n";
    const std::vector<std::string> p{"0 0 0 1 1"};
    m << boxBrushText({-16, -16, -16}, {272, 272, 0}, "floor", p) << boxBrushText({-16, -16, 128}, {272, 272, 144}, "c", p)
      << boxBrushText({-16, -16, 0}, {0, 272, 128}, "w", p) << boxBrushText({256, -16, 0}, {272, 272, 128}, "w", p)
      << boxBrushText({0, -16, 0}, {256, 0, 128}, "w", p) << boxBrushText({0, 256, 0}, {256, 272, 128}, "w", p)
      << boxBrushText({100, 100, 0}, {164, 164, 128}, "block", p) << "}\n";
    m << "{\n\"classname\" \"light\"\n\"origin\" \"64 64 0\"\n}\n";
    m << "{\n\"classname\" \"light\"\n\"origin\" \"132 132 64\"\n}\n";
    m << "{\n\"classname\" \"light\"\n\"origin\" \"200 200 64.05\"\n}\n";
    const LevelLighting lit = lightWithTree(readLevel(m.str()));
    ASSERT_EQ(lit.lights.size(), 3u);
    EXPECT_EQ(lit.lights[0].origin, Vec3(64, 64, 2));
    EXPECT_EQ(lit.lights[1].origin, Vec3(132, 132, 64));
    EXPECT_EQ(lit.lights[2].origin, Vec3(200, 200, 64.05)); // clear: nothing within 0.1
    ASSERT_EQ(lit.warnings.size(), 1u);
    EXPECT_NE(lit.warnings[0].find("in solid"), std::string::npos);
}

// One thread and several give the same lightmaps.
TEST(LightDirect, ThreadsDoNotChangeTheResult) {
    Rng rng(77);
    bool sun = false;
    const LitLevel level = readLevel(randomRoom(rng, sun));
    const LevelLighting one = lightWithTree(level, 1), four = lightWithTree(level, 4);
    ASSERT_EQ(one.lightmaps.size(), four.lightmaps.size());
    for (size_t f = 0; f < one.lightmaps.size(); ++f) {
        ASSERT_EQ(one.lightmaps[f].styles.size(), four.lightmaps[f].styles.size());
        for (size_t s = 0; s < one.lightmaps[f].styles.size(); ++s)
            EXPECT_EQ(one.lightmaps[f].styles[s].rgb, four.lightmaps[f].styles[s].rgb);
    }
}

} // namespace
