// Lightmaps stored in the .obsp (format version 5, the LITE section; io/obsp_lightmaps.h):
// a lit room written and read back answers the light op as before; a damaged section costs
// only the lightmaps; forged counts and cut payloads are refused without a crash.
#include "light_level.h"

#include "io/obsp_format.h"
#include "io/obsp_lightmaps.h"
#include "light/light_lookup.h"

#include <cstring>
#include <sstream>

using namespace shallot;
using namespace shallot::test;

namespace {

std::string roomText() {
    std::string m = "{\n\"classname\" \"worldspawn\"\n\"light\" \"10\"\n";
    const std::vector<std::string> p{"0 0 0 1 1", "[ 1 0 0 3 ] [ 0 0 -1 5 ] 0 1 1", "7 9 30 0.5 2"};
    m += boxBrushText({-16, -16, -16}, {272, 272, 0}, "floor", p);
    m += boxBrushText({-16, -16, 128}, {272, 272, 144}, "ceiling", p);
    m += boxBrushText({-16, -16, 0}, {0, 272, 128}, "wall", p);
    m += boxBrushText({256, -16, 0}, {272, 272, 128}, "wall", p);
    m += boxBrushText({0, -16, 0}, {256, 0, 128}, "wall", p);
    m += boxBrushText({0, 256, 0}, {256, 272, 128}, "wall", p);
    m += boxBrushText({96, 96, 0}, {160, 160, 64}, "crate", p);
    m += "}\n{\n\"classname\" \"light\"\n\"origin\" \"64 64 96\"\n\"_color\" \"255 128 64\"\n}\n";
    m += "{\n\"classname\" \"light\"\n\"origin\" \"200 200 40\"\n\"style\" \"5\"\n}\n";
    return m;
}

struct Stored {
    LitLevel level;
    LevelLighting lighting;
    BspTree tree;
    std::string bytes;
};

Stored storedRoom() {
    Stored s{readLevel(roomText()), {}, {}, {}};
    const CompileResult compiled = compileWorld(s.level.world);
    s.tree = compiled.onion;
    s.lighting = lightLevelInTree(lightInput(s.level), s.tree, pointPoseIndex(s.tree.poses), 2);
    std::ostringstream out;
    writeObsp(s.tree, out, &s.level.world.brushes, nullptr, &s.lighting);
    s.bytes = out.str();
    return s;
}

ObspReadResult fromBytes(const std::string& bytes) {
    std::istringstream in(bytes);
    return readObsp(in);
}

uint64_t getLE(const std::string& b, size_t at, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= uint64_t(uint8_t(b[at + size_t(i)])) << (8 * i);
    return v;
}

size_t liteSectionAt(const std::string& b) {
    size_t pos = 96;
    while (pos + 12 <= b.size()) {
        if (std::memcmp(b.data() + pos, "LITE", 4) == 0) return pos;
        pos += 16 + size_t(getLE(b, pos + 4, 8));
    }
    ADD_FAILURE() << "no LITE section";
    return 0;
}

TEST(ObspLightmaps, ReadBackAnswersAsBefore) {
    const Stored s = storedRoom();
    const ObspReadResult r = fromBytes(s.bytes);
    ASSERT_TRUE(r.tree) << r.error;
    EXPECT_EQ(r.info.version, kObspVersion);
    ASSERT_TRUE(r.lighting) << r.lightingError;
    ASSERT_EQ(r.lighting->faces.size(), s.lighting.faces.size());
    EXPECT_EQ(r.lighting->stats.luxels, s.lighting.stats.luxels);
    EXPECT_GT(r.lighting->stats.outsideFaces, 0u);
    for (size_t f = 0; f < s.lighting.faces.size(); ++f) {
        EXPECT_EQ(r.lighting->faces[f].polygon.vertices, s.lighting.faces[f].polygon.vertices);
        ASSERT_EQ(r.lighting->lightmaps[f].styles.size(), s.lighting.lightmaps[f].styles.size());
        for (size_t k = 0; k < s.lighting.lightmaps[f].styles.size(); ++k) {
            EXPECT_EQ(r.lighting->lightmaps[f].styles[k].style, s.lighting.lightmaps[f].styles[k].style);
            EXPECT_EQ(r.lighting->lightmaps[f].styles[k].rgb, s.lighting.lightmaps[f].styles[k].rgb);
        }
    }
    Rng rng(5);
    int answered = 0;
    for (int i = 0; i < 500; ++i) {
        const LitFace& face = s.lighting.faces[rng() % s.lighting.faces.size()];
        const Vec3 p = randomPointIn(rng, face.polygon);
        std::string e1, e2;
        const std::optional<LightReading> a = readLight(s.lighting, p, face.plane.normal, e1);
        const std::optional<LightReading> b = readLight(*r.lighting, p, face.plane.normal, e2);
        ASSERT_EQ(bool(a), bool(b));
        EXPECT_EQ(e1, e2);
        if (!a) continue;
        ++answered;
        EXPECT_EQ(a->light, b->light);
        EXPECT_EQ(a->color, b->color);
    }
    EXPECT_GT(answered, 100);
    // A file without lightmaps has none, and no error.
    std::ostringstream plain;
    writeObsp(s.tree, plain);
    const ObspReadResult p = fromBytes(plain.str());
    EXPECT_FALSE(p.lighting);
    EXPECT_TRUE(p.lightingError.empty());
}

TEST(ObspLightmaps, ADamagedSectionCostsOnlyTheLightmaps) {
    const Stored s = storedRoom();
    std::string corrupt = s.bytes;
    corrupt[liteSectionAt(corrupt) + 40] ^= 0x5a; // a checksum mismatch
    ObspReadResult r = fromBytes(corrupt);
    ASSERT_TRUE(r.tree) << r.error;
    EXPECT_FALSE(r.lighting);
    EXPECT_NE(r.lightingError.find("section 'lightmaps'"), std::string::npos) << r.lightingError;
    // Cut inside the section.
    r = fromBytes(s.bytes.substr(0, liteSectionAt(s.bytes) + 100));
    ASSERT_TRUE(r.tree) << r.error;
    EXPECT_FALSE(r.lighting);
    EXPECT_FALSE(r.lightingError.empty());
}

// Every cut and many byte changes of the payload itself: refused with a message or read,
// never a crash or an allocation past the payload's size.
TEST(ObspLightmaps, HostilePayloads) {
    const Stored s = storedRoom();
    const std::string payload = lightmapPayload(s.lighting);
    std::string error;
    size_t at = 0;
    ASSERT_TRUE(readLightmapPayload(payload, error, at)) << error;
    for (size_t cut = 0; cut < payload.size(); cut += 1 + cut / 50) {
        EXPECT_FALSE(readLightmapPayload(std::string_view(payload).substr(0, cut), error, at)) << cut;
        EXPECT_FALSE(error.empty());
    }
    Rng rng(9);
    for (int i = 0; i < 3000; ++i) {
        std::string forged = payload;
        const size_t k = rng() % forged.size();
        forged[k] = char(rng());
        readLightmapPayload(forged, error, at); // either reads or says why
    }
    std::string huge = payload;
    huge[0] = huge[1] = huge[2] = huge[3] = char(0xff);
    EXPECT_FALSE(readLightmapPayload(huge, error, at));
    EXPECT_NE(error.find("face count"), std::string::npos) << error;
}

} // namespace
