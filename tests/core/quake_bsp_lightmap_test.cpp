// The lightmap reader of Quake's .bsp (core/io/quake_bsp_lightmap): small levels written
// here byte by byte with known luxels, the samples they must give, and damaged copies.
#include "io/quake_bsp_lightmap.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace shallot;

namespace {

enum class Format { Bsp29, Bsp2 };

struct TestTexinfo {
    Vec3 s, t;
    float sOffset, tOffset;
    int32_t miptex;
    uint32_t flags;
};

struct TestFace {
    int plane, side;
    std::vector<int> vertices; // indices, in order
    int texinfo;
    std::array<uint8_t, 4> styles;
    int32_t lightofs;
};

struct TestNode {
    int plane, front, back; // a child < 0 is the leaf -(child + 1)
};

struct TestLevel {
    std::vector<std::pair<Vec3, float>> planes;
    std::vector<TestNode> nodes;
    std::vector<int32_t> leafContents;
    std::vector<Vec3> vertices;
    std::vector<TestTexinfo> texinfos;
    std::vector<std::string> textures;
    std::vector<TestFace> faces;
    std::vector<uint8_t> lighting;
    int32_t worldFirstFace = 0, worldFaceCount = 0;
};

void put32(std::vector<uint8_t>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
void put16(std::vector<uint8_t>& out, uint16_t v) {
    out.push_back(uint8_t(v));
    out.push_back(uint8_t(v >> 8));
}
void putFloat(std::vector<uint8_t>& out, float f) { put32(out, std::bit_cast<uint32_t>(f)); }
void putVec(std::vector<uint8_t>& out, const Vec3& v) {
    for (int i = 0; i < 3; ++i) putFloat(out, float(v[i]));
}

// The level as a .bsp: each face's edges are written as its own (vertex i, vertex i+1)
// edges, odd ones stored reversed and used through a negative surfedge, as compilers share
// edges between faces. Lumps follow the header in index order; the models lump (a world
// model over faces worldFirstFace..+worldFaceCount and a second model over the rest) is
// last, so that every byte of the file belongs to the header or a lump.
std::vector<uint8_t> writeBsp(const TestLevel& level, Format format) {
    const bool wide = format == Format::Bsp2;
    std::vector<uint8_t> lumps[15];
    for (const auto& [normal, dist] : level.planes) {
        putVec(lumps[1], normal);
        putFloat(lumps[1], dist);
        put32(lumps[1], 0);
    }
    put32(lumps[2], uint32_t(level.textures.size()));
    for (size_t i = 0; i < level.textures.size(); ++i) put32(lumps[2], uint32_t(4 + 4 * level.textures.size() + 40 * i));
    for (const std::string& name : level.textures) {
        char bytes[40] = {};
        std::memcpy(bytes, name.data(), std::min<size_t>(name.size(), 16));
        lumps[2].insert(lumps[2].end(), bytes, bytes + 40);
    }
    for (const Vec3& v : level.vertices) putVec(lumps[3], v);
    for (const TestTexinfo& t : level.texinfos) {
        putVec(lumps[6], t.s);
        putFloat(lumps[6], t.sOffset);
        putVec(lumps[6], t.t);
        putFloat(lumps[6], t.tOffset);
        put32(lumps[6], uint32_t(t.miptex));
        put32(lumps[6], t.flags);
    }
    auto putEdge = [&](uint32_t a, uint32_t b) {
        if (wide) {
            put32(lumps[12], a);
            put32(lumps[12], b);
        } else {
            put16(lumps[12], uint16_t(a));
            put16(lumps[12], uint16_t(b));
        }
    };
    putEdge(0, 0); // edge 0 is never used (a surfedge of 0 could not be reversed)
    uint32_t edges = 1, surfedges = 0;
    for (const TestFace& f : level.faces) {
        const uint32_t first = surfedges;
        for (size_t k = 0; k < f.vertices.size(); ++k) {
            const uint32_t a = uint32_t(f.vertices[k]), b = uint32_t(f.vertices[(k + 1) % f.vertices.size()]);
            if (k % 2 == 0) {
                putEdge(a, b);
                put32(lumps[13], edges);
            } else {
                putEdge(b, a);
                put32(lumps[13], uint32_t(-int32_t(edges)));
            }
            ++edges;
            ++surfedges;
        }
        if (wide) {
            put32(lumps[7], uint32_t(f.plane));
            put32(lumps[7], uint32_t(f.side));
            put32(lumps[7], first);
            put32(lumps[7], uint32_t(f.vertices.size()));
            put32(lumps[7], uint32_t(f.texinfo));
        } else {
            put16(lumps[7], uint16_t(f.plane));
            put16(lumps[7], uint16_t(f.side));
            put32(lumps[7], first);
            put16(lumps[7], uint16_t(f.vertices.size()));
            put16(lumps[7], uint16_t(f.texinfo));
        }
        lumps[7].insert(lumps[7].end(), f.styles.begin(), f.styles.end());
        put32(lumps[7], uint32_t(f.lightofs));
    }
    lumps[8] = level.lighting;
    // Nodes and leaves: bounds and face ranges zero (the reader uses none of them).
    for (const TestNode& n : level.nodes) {
        put32(lumps[5], uint32_t(n.plane));
        if (wide) {
            put32(lumps[5], uint32_t(n.front));
            put32(lumps[5], uint32_t(n.back));
            lumps[5].insert(lumps[5].end(), 6 * 4 + 2 * 4, 0);
        } else {
            put16(lumps[5], uint16_t(int16_t(n.front)));
            put16(lumps[5], uint16_t(int16_t(n.back)));
            lumps[5].insert(lumps[5].end(), 6 * 2 + 2 * 2, 0);
        }
    }
    for (int32_t contents : level.leafContents) {
        put32(lumps[10], uint32_t(contents));
        put32(lumps[10], uint32_t(-1)); // no visdata
        lumps[10].insert(lumps[10].end(), wide ? 6 * 4 + 2 * 4 + 4 : 6 * 2 + 2 * 2 + 4, 0);
    }
    auto putModel = [&](int32_t firstFace, int32_t count) {
        for (int i = 0; i < 9; ++i) putFloat(lumps[14], 0.0f); // mins, maxs, origin
        for (int i = 0; i < 5; ++i) put32(lumps[14], 0);       // headnodes, visleafs
        put32(lumps[14], uint32_t(firstFace));
        put32(lumps[14], uint32_t(count));
    };
    putModel(level.worldFirstFace, level.worldFaceCount);
    putModel(level.worldFirstFace + level.worldFaceCount,
             int32_t(level.faces.size()) - level.worldFirstFace - level.worldFaceCount);

    std::vector<uint8_t> out;
    if (wide) out.insert(out.end(), {'B', 'S', 'P', '2'});
    else put32(out, 29);
    size_t offset = 4 + 15 * 8;
    for (const auto& l : lumps) {
        put32(out, uint32_t(offset));
        put32(out, uint32_t(l.size()));
        offset += l.size();
    }
    for (const auto& l : lumps) out.insert(out.end(), l.begin(), l.end());
    return out;
}

// A rectangle's four corners on the plane z = height, wound clockwise seen from `up`
// (+z: from above), as Quake winds faces seen from their front.
std::vector<int> addRectangle(TestLevel& level, double x0, double y0, double x1, double y1, double height, bool up) {
    const int first = int(level.vertices.size());
    level.vertices.push_back({x0, y0, height});
    level.vertices.push_back({x0, y1, height});
    level.vertices.push_back({x1, y1, height});
    level.vertices.push_back({x1, y0, height});
    if (up) return {first, first + 1, first + 2, first + 3};
    return {first + 3, first + 2, first + 1, first};
}

// Luxel counts of a face as the engine computes them, straight from the definition.
std::pair<int, int> luxelGrid(const TestLevel& level, const TestFace& face, int axis) {
    const TestTexinfo& tex = level.texinfos[size_t(face.texinfo)];
    double lo = 1e30, hi = -1e30;
    for (int v : face.vertices) {
        const Vec3& p = level.vertices[size_t(v)];
        const double s = axis == 0 ? tex.s.dot(p) + tex.sOffset : tex.t.dot(p) + tex.tOffset;
        lo = std::min(lo, s);
        hi = std::max(hi, s);
    }
    const int mins = int(std::floor(lo / 16)), maxs = int(std::ceil(hi / 16));
    return {mins * 16, maxs - mins + 1}; // texturemins, luxels across
}

// Appends a lightmap of w x h luxels per style to the lighting lump, value(style, i, j).
template <class Value>
int32_t addLightmap(TestLevel& level, int w, int h, int styles, Value value) {
    const int32_t offset = int32_t(level.lighting.size());
    for (int style = 0; style < styles; ++style)
        for (int j = 0; j < h; ++j)
            for (int i = 0; i < w; ++i) level.lighting.push_back(uint8_t(value(style, i, j)));
    return offset;
}

// Faces of the test level.
constexpr int kFloor = 0;        // z = 0 facing up, axial texture, lightmap linear in (i, j)
constexpr int kCeiling = 1;      // z = 64 facing down, rotated and scaled texture, linear lightmap
constexpr int kSky = 2;          // special texinfo, no lightmap
constexpr int kTwoStyles = 3;    // styles {5, 0}: style 0 is the second lightmap
constexpr int kUnlit = 4;        // lightofs -1
constexpr int kUnderFloor = 5;   // z = 0 facing down under the floor, constant 200
constexpr int kLiquidTop = 6;    // a pool's surface at z = 0 (water below), lit
constexpr int kLiquidUnder = 7;  // the same seen from the water, lit
constexpr int kPoolFloor = 8;    // z = -32 facing up: water in front, solid behind; lit
constexpr int kSpiky = 9;        // a 32 x 32 square with a vertex on an edge and a spike out and back
constexpr int kSubmodel = 10;    // lit, but a brush entity's face (the second model's)

// Linear lightmaps, so that the bilinear sample is the same linear function anywhere.
constexpr double kFloorBase = 20, kFloorPerI = 9, kFloorPerJ = 13;
constexpr double kCeilingBase = 100, kCeilingPerI = -7, kCeilingPerJ = 5;

TestLevel makeLevel() {
    TestLevel level;
    level.planes = {{Vec3::UnitZ(), 0.0f}, {Vec3::UnitZ(), 64.0f}, {Vec3::UnitX(), 200.0f},
                    {Vec3::UnitY(), -100.0f}, {Vec3::UnitZ(), -32.0f}};
    // The world's leaves: empty where y >= -100 or z >= 0; below, a pool of water down to
    // z = -32 and solid under it.
    level.nodes = {{3, -2, 1}, {0, -2, 2}, {4, -3, -1}};
    level.leafContents = {kQuakeContentsSolid, kQuakeContentsEmpty, -3 /* water */};
    level.textures = {"floor1", "sky4", "ceil_2"};
    level.texinfos = {
        {Vec3::UnitX(), Vec3::UnitY(), 0.0f, 0.0f, 0, 0},
        {Vec3(0.75, 0.5, 0), Vec3(-0.5, 0.75, 0), 3.25f, -7.5f, 2, 0},
        {Vec3::UnitY(), -Vec3::UnitZ(), 0.0f, 0.0f, 1, kQuakeTexSpecial},
    };
    level.faces.resize(11);
    level.faces[kFloor] = {0, 0, addRectangle(level, 8, -4, 72, 40, 0, true), 0, {0, 255, 255, 255}, 0};
    level.faces[kCeiling] = {1, 1, addRectangle(level, -20, 10, 90, 70, 64, false), 1, {0, 255, 255, 255}, 0};
    {
        const int first = int(level.vertices.size());
        level.vertices.push_back({200, 0, 0});
        level.vertices.push_back({200, 0, 64});
        level.vertices.push_back({200, 64, 64});
        level.vertices.push_back({200, 64, 0});
        level.faces[kSky] = {2, 0, {first, first + 1, first + 2, first + 3}, 2, {255, 255, 255, 255}, -1};
    }
    level.faces[kTwoStyles] = {0, 0, addRectangle(level, 100, 0, 132, 32, 0, true), 0, {5, 0, 255, 255}, 0};
    level.faces[kUnlit] = {0, 0, addRectangle(level, 140, 0, 172, 32, 0, true), 0, {255, 255, 255, 255}, -1};
    level.faces[kUnderFloor] = {0, 1, addRectangle(level, 8, -4, 72, 40, 0, false), 0, {0, 255, 255, 255}, 0};
    level.faces[kLiquidTop] = {0, 0, addRectangle(level, 0, -164, 32, -132, 0, true), 0, {0, 255, 255, 255}, 0};
    level.faces[kLiquidUnder] = {0, 1, addRectangle(level, 0, -164, 32, -132, 0, false), 0, {0, 255, 255, 255}, 0};
    level.faces[kPoolFloor] = {4, 0, addRectangle(level, 0, -164, 32, -132, -32, true), 0, {0, 255, 255, 255}, 0};
    {
        // As qbsp's T-junction fixes leave them: (410, 32) on the edge, then out to (404, 32)
        // and back to (410, 32) again.
        const int first = int(level.vertices.size());
        for (const Vec3& v : {Vec3(400, 0, 0), Vec3(400, 32, 0), Vec3(410, 32, 0), Vec3(404, 32, 0), Vec3(410, 32, 0),
                              Vec3(432, 32, 0), Vec3(432, 0, 0)})
            level.vertices.push_back(v);
        level.faces[kSpiky] = {0, 0, {first, first + 1, first + 2, first + 3, first + 4, first + 5, first + 6}, 0,
                               {0, 255, 255, 255}, 0};
    }
    level.faces[kSubmodel] = {0, 0, addRectangle(level, 300, 0, 332, 32, 0, true), 0, {0, 255, 255, 255}, 0};
    level.worldFirstFace = 0;
    level.worldFaceCount = 10;

    auto lightmapOf = [&](int face, int styles, auto value) {
        const auto [sMins, w] = luxelGrid(level, level.faces[size_t(face)], 0);
        const auto [tMins, h] = luxelGrid(level, level.faces[size_t(face)], 1);
        level.faces[size_t(face)].lightofs = addLightmap(level, w, h, styles, value);
    };
    lightmapOf(kFloor, 1, [](int, int i, int j) { return kFloorBase + kFloorPerI * i + kFloorPerJ * j; });
    lightmapOf(kCeiling, 1, [](int, int i, int j) { return kCeilingBase + kCeilingPerI * i + kCeilingPerJ * j; });
    lightmapOf(kTwoStyles, 2, [](int style, int i, int j) { return style == 0 ? 250 : 10 * i + 20 * j + 1; });
    lightmapOf(kUnderFloor, 1, [](int, int, int) { return 200; });
    lightmapOf(kSubmodel, 1, [](int, int, int) { return 77; });
    for (int face : {kLiquidTop, kLiquidUnder, kPoolFloor, kSpiky})
        lightmapOf(face, 1, [](int, int, int) { return 50; });
    return level;
}

QuakeBspLightmaps readLevel(const TestLevel& level, Format format) {
    const std::vector<uint8_t> bytes = writeBsp(level, format);
    QuakeBspLightmapReadResult read = readQuakeBspLightmaps(bytes);
    EXPECT_TRUE(read.level.has_value()) << read.error;
    return read.level ? *read.level : QuakeBspLightmaps{};
}

// Texture coordinate of p on a test texinfo.
double texCoord(const TestTexinfo& tex, const Vec3& p, int axis) {
    return axis == 0 ? tex.s.dot(p) + tex.sOffset : tex.t.dot(p) + tex.tOffset;
}

} // namespace

TEST(QuakeBspLightmap, ReadsFacesExtentsAndLuxelGridsAsTheEngine) {
    const TestLevel level = makeLevel();
    for (Format format : {Format::Bsp29, Format::Bsp2}) {
        const QuakeBspLightmaps bsp = readLevel(level, format);
        EXPECT_EQ(bsp.format, format == Format::Bsp29 ? "BSP29" : "BSP2");
        ASSERT_EQ(bsp.faces.size(), level.faces.size());
        // Floor: s over [8, 72] -> texturemins 0, extents 80, 6 luxels; t over [-4, 40] ->
        // texturemins -16, extents 64, 5 luxels.
        const QuakeLightmapFace& floor = bsp.faces[kFloor];
        EXPECT_EQ(floor.textureMins, (std::array<int, 2>{0, -16}));
        EXPECT_EQ(floor.extents, (std::array<int, 2>{80, 64}));
        EXPECT_EQ(floor.luxelsWide, 6);
        EXPECT_EQ(floor.luxelsHigh, 5);
        EXPECT_TRUE(floor.normal.isApprox(Vec3::UnitZ()));
        EXPECT_EQ(floor.polygon.size(), 4u);
        // Side 1 flips the plane.
        EXPECT_TRUE(bsp.faces[kCeiling].normal.isApprox(-Vec3::UnitZ()));
        EXPECT_DOUBLE_EQ(bsp.faces[kCeiling].dist, -64.0);
        for (size_t f = 0; f < level.faces.size(); ++f) {
            const auto [sMins, w] = luxelGrid(level, level.faces[f], 0);
            const auto [tMins, h] = luxelGrid(level, level.faces[f], 1);
            EXPECT_EQ(bsp.faces[f].textureMins[0], sMins) << f;
            EXPECT_EQ(bsp.faces[f].textureMins[1], tMins) << f;
            EXPECT_EQ(bsp.faces[f].luxelsWide, w) << f;
            EXPECT_EQ(bsp.faces[f].luxelsHigh, h) << f;
            // The polygon is the face's vertices in order, whatever the edges' directions.
            for (size_t k = 0; k < level.faces[f].vertices.size(); ++k)
                EXPECT_EQ(bsp.faces[f].polygon[k], level.vertices[size_t(level.faces[f].vertices[k])]) << f;
        }
        EXPECT_EQ(bsp.textureName(bsp.faces[kCeiling]), "ceil_2");
        EXPECT_TRUE(bsp.isSkyOrLiquid(bsp.faces[kSky]));
        EXPECT_FALSE(bsp.isLitWorldFace(bsp.faces[kSky]));
        EXPECT_FALSE(bsp.isLitWorldFace(bsp.faces[kUnlit]));
        EXPECT_FALSE(bsp.isLitWorldFace(bsp.faces[kSubmodel]));
        EXPECT_TRUE(bsp.isLitWorldFace(bsp.faces[kTwoStyles]));
        // Liquid surfaces from the leaves on their sides (no flag, no name), from either side;
        // a face under water against solid is lit.
        EXPECT_TRUE(bsp.isSkyOrLiquid(bsp.faces[kLiquidTop]));
        EXPECT_TRUE(bsp.isSkyOrLiquid(bsp.faces[kLiquidUnder]));
        EXPECT_FALSE(bsp.isSkyOrLiquid(bsp.faces[kPoolFloor]));
        EXPECT_TRUE(bsp.isLitWorldFace(bsp.faces[kPoolFloor]));
        EXPECT_EQ(bsp.faces[kPoolFloor].frontContents, -3);
        EXPECT_EQ(bsp.faces[kPoolFloor].backContents, kQuakeContentsSolid);
        EXPECT_EQ(bsp.faces[kFloor].frontContents, kQuakeContentsEmpty);
        EXPECT_EQ(bsp.faces[kFloor].backContents, kQuakeContentsEmpty);
        EXPECT_EQ(bsp.faces[kTwoStyles].styleZeroSlot(), 1);
    }
}

TEST(QuakeBspLightmap, SampleIsTheBilinearBlendOfTheLuxels) {
    const TestLevel level = makeLevel();
    const QuakeBspLightmaps bsp = readLevel(level, Format::Bsp29);
    std::mt19937_64 rng(41);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    // Linear lightmaps: the bilinear blend is the same linear function of the luxel
    // coordinates u = (s - texturemins_s) / 16, v = (t - texturemins_t) / 16 anywhere.
    struct Case {
        int face;
        double x0, y0, x1, y1, z, base, perI, perJ;
    };
    for (const Case& c : {Case{kFloor, 8, -4, 72, 40, 0, kFloorBase, kFloorPerI, kFloorPerJ},
                          Case{kCeiling, -20, 10, 90, 70, 64, kCeilingBase, kCeilingPerI, kCeilingPerJ}}) {
        const TestFace& face = level.faces[size_t(c.face)];
        const TestTexinfo& tex = level.texinfos[size_t(face.texinfo)];
        const int sMins = luxelGrid(level, face, 0).first, tMins = luxelGrid(level, face, 1).first;
        const Vec3 normal = bsp.faces[size_t(c.face)].normal;
        for (int n = 0; n < 500; ++n) {
            const Vec3 p(c.x0 + (c.x1 - c.x0) * unit(rng), c.y0 + (c.y1 - c.y0) * unit(rng), c.z);
            const double u = (texCoord(tex, p, 0) - sMins) / 16, v = (texCoord(tex, p, 1) - tMins) / 16;
            const std::optional<QuakeLightSample> got = bsp.sampleAt(p, normal);
            ASSERT_TRUE(got.has_value());
            EXPECT_EQ(got->face, c.face);
            EXPECT_NEAR(got->light, c.base + c.perI * u + c.perJ * v, 1e-3) << p.transpose();
            for (double channel : got->color) EXPECT_DOUBLE_EQ(channel, got->light); // no .lit: grey
        }
    }
    // Luxels by index, clamped to the grid; depth inside the polygon.
    EXPECT_EQ(bsp.luxel(kFloor, 2, 3), int(kFloorBase + kFloorPerI * 2 + kFloorPerJ * 3));
    EXPECT_EQ(bsp.luxel(kFloor, 99, -4), int(kFloorBase + kFloorPerI * 5));
    EXPECT_EQ(bsp.luxel(kUnlit, 0, 0), 0);
    EXPECT_NEAR(bsp.depthInFace(kFloor, {40, 18, 0}), 22.0, 1e-9);
    EXPECT_NEAR(bsp.depthInFace(kFloor, {70, 18, 0}), 2.0, 1e-9);
    EXPECT_NEAR(bsp.depthInFace(kFloor, {80, 18, 0}), -8.0, 1e-9);
    EXPECT_NEAR(bsp.depthInFace(kUnderFloor, {70, 18, 0}), 2.0, 1e-9); // the other winding
    // A non-linear lightmap (kTwoStyles' style 0 is the second block: 10 i + 20 j + 1 is
    // linear, style 5's 250 must never show): at luxel positions the luxel itself.
    const Vec3 up = Vec3::UnitZ();
    EXPECT_NEAR(bsp.sampleAt({112, 16, 0}, up)->light, 10 * 1 + 20 * 1 + 1, 1e-9); // s 112 = 96 + 16
    EXPECT_NEAR(bsp.sampleAt({104, 8, 0}, up)->light, 10 * 0.5 + 20 * 0.5 + 1, 1e-9);
    // Back to back at z = 0: the normal chooses the face.
    EXPECT_EQ(bsp.sampleAt({40, 20, 0}, -up)->face, kUnderFloor);
    EXPECT_DOUBLE_EQ(bsp.sampleAt({40, 20, 0}, -up)->light, 200.0);
    // A face without a lightmap reads 0; a brush entity's face is not found.
    EXPECT_EQ(bsp.sampleAt({150, 10, 0}, up)->face, kUnlit);
    EXPECT_DOUBLE_EQ(bsp.sampleAt({150, 10, 0}, up)->light, 0.0);
    EXPECT_FALSE(bsp.sampleAt({310, 10, 0}, up).has_value());
}

TEST(QuakeBspLightmap, FindsTheFaceWithinTheContractsTolerances) {
    const QuakeBspLightmaps bsp = readLevel(makeLevel(), Format::Bsp2);
    const Vec3 up = Vec3::UnitZ();
    EXPECT_EQ(bsp.findWorldFace({40, 20, 0.4}, up), kFloor);
    EXPECT_EQ(bsp.findWorldFace({40, 20, -0.4}, up), kFloor);
    EXPECT_EQ(bsp.findWorldFace({40, 20, 0.6}, up), -1);
    const double half = 0.5 * M_PI / 180, two = 2 * M_PI / 180;
    EXPECT_EQ(bsp.findWorldFace({40, 20, 0}, Vec3(std::sin(half), 0, std::cos(half))), kFloor);
    EXPECT_EQ(bsp.findWorldFace({40, 20, 0}, Vec3(std::sin(two), 0, std::cos(two))), -1);
    EXPECT_EQ(bsp.findWorldFace({40, 20, 0}, 5 * up), kFloor); // any length
    EXPECT_EQ(bsp.findWorldFace({7.6, 20, 0}, up), kFloor);    // 0.4 outside the edge x = 8
    EXPECT_EQ(bsp.findWorldFace({7.4, 20, 0}, up), -1);
    EXPECT_EQ(bsp.findWorldFace({40, 20, 0}, Vec3::Zero()), -1);
    EXPECT_EQ(bsp.findWorldFace({NAN, 20, 0}, up), -1);
    // The ceiling faces down: found from below only.
    EXPECT_EQ(bsp.findWorldFace({0, 40, 64}, -up), kCeiling);
    EXPECT_EQ(bsp.findWorldFace({0, 40, 64}, up), -1);
    // A vertex on an edge and a spike out and back do not cut the face: its outline is the
    // square.
    EXPECT_EQ(bsp.faces[kSpiky].polygon.size(), 7u);
    EXPECT_EQ(bsp.faces[kSpiky].outline.size(), 4u);
    EXPECT_EQ(bsp.findWorldFace({416, 8, 0}, up), kSpiky);
    EXPECT_NEAR(bsp.depthInFace(kSpiky, {416, 8, 0}), 8.0, 1e-9);
    EXPECT_NEAR(bsp.depthInFace(kSpiky, {402, 30, 0}), 2.0, 1e-9);
}

TEST(QuakeBspLightmap, ReadsColourFromALit) {
    const TestLevel level = makeLevel();
    const std::vector<uint8_t> bytes = writeBsp(level, Format::Bsp29);
    std::vector<uint8_t> lit{'Q', 'L', 'I', 'T', 1, 0, 0, 0};
    for (uint8_t b : level.lighting) lit.insert(lit.end(), {b, uint8_t(b / 2), uint8_t(255 - b)});
    const QuakeBspLightmapReadResult read = readQuakeBspLightmaps(bytes, lit);
    ASSERT_TRUE(read.level.has_value()) << read.error;
    EXPECT_TRUE(read.level->hasColor());
    const QuakeLightSample s = *read.level->sampleAt({40, 20, 0}, Vec3::UnitZ());
    EXPECT_NEAR(s.color[0], s.light, 1e-9);
    EXPECT_NEAR(s.color[1], s.light / 2, 0.5); // halves rounded down per luxel
    EXPECT_NEAR(s.color[2], 255 - s.light, 1e-9);

    std::vector<uint8_t> shortLit(lit.begin(), lit.end() - 3);
    const QuakeBspLightmapReadResult bad = readQuakeBspLightmaps(bytes, shortLit);
    EXPECT_FALSE(bad.level.has_value());
    EXPECT_NE(bad.error.find(".lit"), std::string::npos) << bad.error;
    std::vector<uint8_t> notLit = lit;
    notLit[0] = 'X';
    EXPECT_FALSE(readQuakeBspLightmaps(bytes, notLit).level.has_value());
}

TEST(QuakeBspLightmap, RandomPointsLieOnLitWorldFacesByArea) {
    const TestLevel level = makeLevel();
    const QuakeBspLightmaps bsp = readLevel(level, Format::Bsp29);
    constexpr size_t kPoints = 20000;
    const std::vector<QuakeSurfacePoint> points = bsp.randomLitPoints(kPoints, 7);
    ASSERT_EQ(points.size(), kPoints);
    std::map<int32_t, size_t> perFace;
    for (const QuakeSurfacePoint& p : points) {
        ASSERT_GE(p.face, 0);
        EXPECT_TRUE(bsp.isLitWorldFace(bsp.faces[size_t(p.face)]));
        ++perFace[p.face];
        // On its face: found again there (or on the face back to back with it, never).
        EXPECT_EQ(bsp.findWorldFace(p.position, p.normal), p.face);
    }
    // Lit world faces: floor 64 x 44, ceiling 110 x 60, two styles 32 x 32, under floor 64 x 44,
    // pool floor and spiky square 32 x 32.
    const std::map<int32_t, double> area{{kFloor, 64 * 44}, {kCeiling, 110 * 60}, {kTwoStyles, 32 * 32},
                                         {kUnderFloor, 64 * 44}, {kPoolFloor, 32 * 32}, {kSpiky, 32 * 32}};
    double total = 0;
    for (const auto& [face, a] : area) total += a;
    EXPECT_EQ(perFace.size(), area.size());
    for (const auto& [face, a] : area) {
        const double expected = kPoints * a / total;
        // Binomial: 5 standard deviations.
        EXPECT_NEAR(double(perFace[face]), expected, 5 * std::sqrt(expected)) << face;
    }
    // The same seed gives the same points.
    const std::vector<QuakeSurfacePoint> again = bsp.randomLitPoints(kPoints, 7);
    for (size_t i = 0; i < kPoints; i += 997) EXPECT_EQ(again[i].position, points[i].position);
}

TEST(QuakeBspLightmap, TruncatedFilesGiveErrors) {
    for (Format format : {Format::Bsp29, Format::Bsp2}) {
        const std::vector<uint8_t> bytes = writeBsp(makeLevel(), format);
        // The models lump ends the file: every shorter copy cuts a lump or the header.
        for (size_t size = 0; size < bytes.size(); ++size) {
            const QuakeBspLightmapReadResult read = readQuakeBspLightmaps(std::span(bytes.data(), size));
            ASSERT_FALSE(read.level.has_value()) << size;
            EXPECT_EQ(read.error.rfind("bsp: ", 0), 0u) << read.error;
        }
    }
}

namespace {

// The read of `level` after `damage`, which must fail with a message containing `expected`.
template <class Damage>
void expectError(Damage damage, const std::string& expected) {
    for (Format format : {Format::Bsp29, Format::Bsp2}) {
        TestLevel level = makeLevel();
        damage(level);
        const std::vector<uint8_t> bytes = writeBsp(level, format);
        const QuakeBspLightmapReadResult read = readQuakeBspLightmaps(bytes);
        EXPECT_FALSE(read.level.has_value()) << expected;
        EXPECT_NE(read.error.find(expected), std::string::npos) << read.error;
    }
}

// Byte offset of lump `index`'s (offset, length) pair in the header.
size_t lumpEntry(int index) { return 4 + size_t(index) * 8; }

} // namespace

TEST(QuakeBspLightmap, BadIndicesAndOffsetsGiveErrors) {
    expectError([](TestLevel& l) { l.faces[kCeiling].lightofs = int32_t(l.lighting.size()) - 3; }, "lighting lump");
    expectError([](TestLevel& l) { l.faces[kFloor].lightofs = 1 << 30; }, "lighting lump");
    expectError([](TestLevel& l) { l.faces[kFloor].texinfo = 9; }, "texinfo 9 out of range");
    expectError([](TestLevel& l) { l.faces[kFloor].plane = 7; }, "plane 7 out of range");
    expectError([](TestLevel& l) { l.faces[kFloor].vertices[2] = 999; }, "vertex 999");
    expectError([](TestLevel& l) { l.worldFaceCount = 40; }, "world model's faces");
    expectError([](TestLevel& l) { l.nodes[1].back = 7; }, "node 1 has child 7 out of range");
    expectError([](TestLevel& l) { l.leafContents.clear(); }, "no leaves");
    expectError([](TestLevel& l) { l.texinfos[0].sOffset = INFINITY; }, "texinfo 0 is not finite");
    expectError([](TestLevel& l) { l.texinfos[0].sOffset = 1e30f; }, "texture coordinates out of range");
    expectError([](TestLevel& l) { l.vertices[3].x() = NAN; }, "vertex 3 is not finite");

    // Lumps outside the file, a record size that does not divide, surfedges out of range.
    const std::vector<uint8_t> good = writeBsp(makeLevel(), Format::Bsp29);
    auto damaged = [&](size_t at, uint32_t value) {
        std::vector<uint8_t> bytes = good;
        for (int i = 0; i < 4; ++i) bytes[at + size_t(i)] = uint8_t(value >> (8 * i));
        return readQuakeBspLightmaps(bytes);
    };
    EXPECT_NE(damaged(lumpEntry(7), 0x7fffff00).error.find("'faces' lies outside"), std::string::npos);
    EXPECT_NE(damaged(lumpEntry(7) + 4, 0xffffffff).error.find("'faces' lies outside"), std::string::npos);
    EXPECT_NE(damaged(lumpEntry(6) + 4, 41).error.find("not a multiple of 40"), std::string::npos);
    EXPECT_NE(damaged(0, 30).error.find("not a Quake level"), std::string::npos);
    {
        uint32_t surfedgesAt = 0;
        std::memcpy(&surfedgesAt, good.data() + lumpEntry(13), 4);
        EXPECT_NE(damaged(surfedgesAt, 0x7fff0000).error.find("uses edge"), std::string::npos);
        EXPECT_NE(damaged(surfedgesAt, 0x80000000).error.find("uses edge"), std::string::npos);
    }
}

TEST(QuakeBspLightmap, RandomlyCorruptedFilesNeverCrash) {
    const std::vector<uint8_t> good = writeBsp(makeLevel(), Format::Bsp2);
    std::mt19937_64 rng(4141);
    size_t read = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        std::vector<uint8_t> bytes = good;
        const int changes = 1 + int(rng() % 4);
        for (int c = 0; c < changes; ++c) bytes[rng() % bytes.size()] = uint8_t(rng());
        const QuakeBspLightmapReadResult result = readQuakeBspLightmaps(bytes);
        if (!result.level) {
            EXPECT_FALSE(result.error.empty());
            continue;
        }
        ++read;
        // What reads is usable: samples and random points stay inside the buffers.
        for (const QuakeSurfacePoint& p : result.level->randomLitPoints(20, uint64_t(trial))) {
            const QuakeLightSample s = result.level->sample(p.face, p.position);
            EXPECT_GE(s.light, 0.0);
            EXPECT_LE(s.light, 255.0);
        }
        (void)result.level->sampleAt({40, 20, 0}, Vec3::UnitZ());
    }
    EXPECT_GT(read, 0u); // some damage (in the lighting bytes, say) still reads
}
