// The .obsp brushes section (format version 3): round trips, box sweeps from the stored
// brushes equal those from the .map's world, older versions still read, and hostile
// sections are errors (the style of obsp_format_test.cpp).
#include "compile/compiler.h"
#include "io/obsp_format.h"
#include "query/box_trace.h"
#include "world/brush_geometry.h"
#include "obsp_bytes.h"
#include "random_world.h"
#include "test_maps.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <limits>
#include <sstream>

namespace shallot {
namespace {

using namespace test;

// A small world with every kind of brush the section treats differently: solid boxes, a
// rotated solid, a clip brush, one that exempts the point pose, a non-solid brush (left
// out) and an invalid one (left out).
World makeWorld() {
    World w;
    w.poses = quakePoses();
    w.bounds = {Vec3::Constant(-1024), Vec3::Constant(1024)};
    w.brushes.push_back(Brush::box(Vec3(-256, -256, -64), Vec3(256, 256, 0)));   // floor
    w.brushes.push_back(Brush::box(Vec3(-256, -256, 0), Vec3(-224, 256, 256)));  // wall
    Rng rng(7);
    w.brushes.push_back(randomBrush(rng, Vec3(64, 32, 64), 48, BrushShape::Random));
    Brush clip = Brush::box(Vec3(100, -200, 0), Vec3(140, -100, 128));
    clip.contents = BrushContents::Clip;
    w.brushes.push_back(clip);
    Brush exempt = Brush::box(Vec3(-100, 100, 0), Vec3(-60, 160, 40));
    exempt.excludedPoses = {"point", "no-such-pose"};
    w.brushes.push_back(exempt);
    Brush water = Brush::box(Vec3(0, 0, 0), Vec3(50, 50, 50));
    water.contents = BrushContents::NonSolid;
    w.brushes.push_back(water);
    w.brushes.push_back(Brush::fromPlanes({{Vec3::UnitX(), 0}, {-Vec3::UnitX(), 0}})); // open: invalid
    return w;
}

struct Written {
    BspTree tree;
    std::string bytes;
};

Written compileAndWrite(const World& w) {
    CompileResult r = compileWorld(w);
    EXPECT_EQ(r.error, "");
    std::ostringstream out;
    writeObsp(r.onion, out, &w.brushes);
    EXPECT_TRUE(out.good());
    return {std::move(r.onion), out.str()};
}

ObspReadResult fromBytes(const std::string& bytes) { return readObspBytes(bytes); }

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(ObspBrushes, RoundTripKeepsTheBlockingValidBrushesInOrder) {
    const World w = makeWorld();
    const Written f = compileAndWrite(w);
    EXPECT_EQ(getLE(f.bytes, 8, 4), kObspFlagBrushes);
    const ObspReadResult r = fromBytes(f.bytes);
    ASSERT_TRUE(r.tree) << r.error;
    ASSERT_TRUE(r.brushes);
    // Brushes 0-4 are kept; the water (non-solid) and the open brush are not.
    ASSERT_EQ(r.brushes->size(), 5u);
    EXPECT_EQ(r.info.brushes, 5u);
    for (size_t i = 0; i < 5; ++i) {
        EXPECT_TRUE(samePlanes((*r.brushes)[i], w.brushes[i])) << i;
        EXPECT_EQ((*r.brushes)[i].contents, w.brushes[i].contents) << i;
    }
    EXPECT_EQ((*r.brushes)[4].excludedPoses, std::vector<std::string>{"point"}); // unknown names dropped
    // Written again from what was read: the same bytes.
    std::ostringstream again;
    writeObsp(*r.tree, again, &*r.brushes);
    EXPECT_EQ(again.str(), f.bytes);
}

TEST(ObspBrushes, FilesWithoutTheSectionAndOlderVersionsStillRead) {
    const World w = makeWorld();
    const Written f = compileAndWrite(w);
    std::ostringstream plain;
    writeObsp(f.tree, plain);
    std::string bytes = plain.str();
    ObspReadResult r = fromBytes(bytes);
    ASSERT_TRUE(r.tree) << r.error;
    EXPECT_FALSE(r.brushes);
    EXPECT_EQ(r.info.version, kObspVersion);
    // The file without brushes is the file of version 2 but for its version number.
    putLE(bytes, 4, 2, 4);
    fixChecksums(bytes);
    r = fromBytes(bytes);
    ASSERT_TRUE(r.tree) << r.error;
    EXPECT_EQ(r.info.version, 2u);
    // Version 2 knows no flags: a version 2 file claiming brushes is refused.
    std::string v2 = f.bytes;
    putLE(v2, 4, 2, 4);
    fixChecksums(v2);
    EXPECT_TRUE(contains(fromBytes(v2).error, "unknown flags 1 at byte 8")) << fromBytes(v2).error;
    // The brushes are one more section after the same sections of the tree.
    EXPECT_TRUE(f.bytes.substr(96, payloadOf(f.bytes, "BRSH") - 12 - 96) == plain.str().substr(96));
}

TEST(ObspBrushes, BoxSweepsFromTheStoredBrushesEqualTheMapWorlds) {
    const World w = makeWorld();
    const ObspReadResult r = fromBytes(compileAndWrite(w).bytes);
    ASSERT_TRUE(r.brushes) << r.error;
    const BoxTraceWorld fromMap = BoxTraceWorld::build(w);
    const BoxTraceWorld fromFile = BoxTraceWorld::build(World{*r.brushes, r.tree->poses, r.tree->bounds});
    Rng rng(11);
    int hits = 0;
    for (int i = 0; i < 3000; ++i) {
        const Vec3 half(uniform(rng, 0, 40), uniform(rng, 0, 40), uniform(rng, 0, 60));
        const Vec3 a(uniform(rng, -300, 300), uniform(rng, -300, 300), uniform(rng, -80, 300));
        const Vec3 b(uniform(rng, -300, 300), uniform(rng, -300, 300), uniform(rng, -80, 300));
        const TraceResult x = traceBox(fromMap, -half, half, a, b), y = traceBox(fromFile, -half, half, a, b);
        ASSERT_EQ(x.startSolid, y.startSolid);
        ASSERT_EQ(x.allSolid, y.allSolid);
        ASSERT_EQ(x.hit, y.hit);
        ASSERT_EQ(x.t, y.t); // the same planes, bit for bit: the same arithmetic
        ASSERT_EQ(x.normal, y.normal);
        hits += x.hit;
    }
    EXPECT_GT(hits, 300); // the sweeps do meet brushes
}

TEST(ObspBrushes, EveryTruncationAndByteFlipOfTheSectionIsAnError) {
    const std::string bytes = compileAndWrite(makeWorld()).bytes;
    const size_t start = payloadOf(bytes, "BRSH") - 12;
    for (size_t length = start; length < bytes.size(); ++length) {
        const ObspReadResult r = fromBytes(bytes.substr(0, length));
        EXPECT_FALSE(r.tree) << length;
        EXPECT_TRUE(contains(r.error, "obsp: ")) << length << ": " << r.error;
    }
    for (size_t at = start; at < bytes.size(); ++at) {
        std::string flipped = bytes;
        flipped[at] = char(uint8_t(flipped[at]) ^ 0x10);
        EXPECT_FALSE(fromBytes(flipped).tree) << "byte " << at;
    }
    // Without the header's flag the section is trailing bytes.
    std::string noFlag = bytes;
    putLE(noFlag, 8, 0, 4);
    fixChecksums(noFlag);
    EXPECT_TRUE(contains(fromBytes(noFlag).error, "trailing bytes")) << fromBytes(noFlag).error;
}

TEST(ObspBrushes, ForgedBrushesAreRejected) {
    const std::string good = compileAndWrite(makeWorld()).bytes;
    const uint64_t nan = std::bit_cast<uint64_t>(std::numeric_limits<double>::quiet_NaN());
    // BRSH payload: count u32, plane total u64, then brush 0 at 12: contents u8, excluded
    // u64, plane count u32, planes of 32 bytes (brush 0 is a box: 6 planes).
    const size_t plane0 = 12 + 13;
    const struct {
        size_t offset;
        uint64_t value;
        int bytes;
        const char* expected;
    } cases[] = {
        {12, 2, 1, "brush 0: brush contents is not solid or clip"},
        {12, 200, 1, "brush 0: brush contents is not solid or clip"},
        {13, 0b1000, 8, "brush 0: brush excludes a pose that does not exist"},
        {21, 3, 4, "brush 0: brush plane count out of range"},
        {21, 1000, 4, "brush 0: more planes than the section's total"},
        {plane0, nan, 8, "brush 0: non-finite plane"},
        {plane0, std::bit_cast<uint64_t>(0.5), 8, "brush 0: plane normal is not of unit length"},
        {plane0 + 24, std::bit_cast<uint64_t>(-1e6), 8, "brush 0: brush is not valid"},     // the +x side far behind
        {plane0 + 24, std::bit_cast<uint64_t>(5000.0), 8, "brush 0: brush is not valid"},    // beyond the bounds
        {0, 0xffffffff, 4, "brush counts are larger than the section"},
        {4, uint64_t(1) << 40, 8, "brush counts are larger than the section"},
        {4, ~uint64_t(0), 8, "brush counts are larger than the section"},
        {4, 0, 8, "brush 0: more planes than the section's total"},
        {0, 4, 4, "fewer brush planes than the section's total"},
    };
    for (const auto& c : cases) {
        std::string bytes = good;
        putLE(bytes, payloadOf(bytes, "BRSH") + c.offset, c.value, c.bytes);
        fixChecksums(bytes);
        const ObspReadResult r = fromBytes(bytes);
        EXPECT_FALSE(r.tree) << c.expected;
        EXPECT_TRUE(contains(r.error, c.expected)) << c.expected << " / " << r.error;
        EXPECT_TRUE(contains(r.error, " at byte ")) << r.error;
        EXPECT_FALSE(contains(r.error, "out of memory")) << r.error;
    }
}

// runtime_buffer_fuzzer: a file whose world box was 6e26 across made the check of a brush
// beyond it cast the extent to int64_t for its message (undefined behaviour).
TEST(ObspBrushes, BrushesBeyondAHugeWorldBoxAreNamedWithItsExtent) {
    const Aabb huge{Vec3::Constant(-1e20), Vec3::Constant(-100)}; // far from the brush at the origin
    const BrushGeometryResult r = buildBrushGeometry(Brush::box(Vec3::Zero(), Vec3::Ones()), huge);
    EXPECT_FALSE(r.geometry);
    EXPECT_EQ(r.error, "has coordinates beyond the world bounds (+-1e+20)");
    const Aabb usual{Vec3::Constant(-65536), Vec3::Constant(65536)};
    EXPECT_EQ(buildBrushGeometry(Brush::box(Vec3::Constant(70000), Vec3::Constant(70001)), usual).error,
              "has coordinates beyond the world bounds (+-65536)");
}

TEST(ObspBrushes, RandomCorruptionWithForgedChecksumsIsAnErrorOrAUsableFile) {
    const std::string bytes = compileAndWrite(makeWorld()).bytes;
    Rng rng(5);
    size_t accepted = 0;
    for (size_t at = payloadOf(bytes, "BRSH") - 12; at < bytes.size(); ++at)
        for (int trial = 0; trial < 3; ++trial) {
            std::string forged = bytes;
            forged[at] = char(rng() & 0xff);
            fixChecksums(forged);
            const ObspReadResult r = fromBytes(forged);
            if (!r.tree) {
                EXPECT_TRUE(contains(r.error, "obsp: ")) << r.error;
                continue;
            }
            ++accepted; // e.g. a nudged plane distance: still a valid brush, and sweepable
            ASSERT_TRUE(r.brushes);
            const BoxTraceWorld w = BoxTraceWorld::build(World{*r.brushes, r.tree->poses, r.tree->bounds});
            EXPECT_EQ(w.brushes.size(), r.brushes->size()); // every stored brush is valid
            const TraceResult t = traceBox(w, Vec3::Constant(-8), Vec3::Constant(8), Vec3(-300, 0, 40), Vec3(300, 0, 40));
            EXPECT_TRUE(t.point.allFinite());
        }
    EXPECT_GT(accepted, 0u);
}

} // namespace
} // namespace shallot
