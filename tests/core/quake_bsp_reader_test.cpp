// The reader of Quake's .bsp (core/io/quake_bsp_reader): small levels written here byte by
// byte in each format, and damaged copies of them.
#include "io/quake_bsp_reader.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace shallot;

namespace {

enum class Format { Bsp29, Bsp2, Bsp2psb };

struct TestNode {
    int plane, front, back;
};
struct TestLeaf {
    int32_t contents, visofs;
};

struct TestLevel {
    std::vector<std::pair<Vec3, float>> planes;
    std::vector<TestNode> nodes;
    std::vector<TestLeaf> leaves;
    std::vector<uint8_t> visdata;
    int32_t visLeafs = 0;
    int32_t headNode = 0;
};

void put32(std::vector<uint8_t>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
void put16(std::vector<uint8_t>& out, uint16_t v) {
    out.push_back(uint8_t(v));
    out.push_back(uint8_t(v >> 8));
}
void putFloat(std::vector<uint8_t>& out, float f) { put32(out, std::bit_cast<uint32_t>(f)); }
// Bounds and counts: int16 in BSP29 and 2PSB, floats in BSP2.
void putBounds(std::vector<uint8_t>& out, Format format, int lo, int hi) {
    for (int i = 0; i < 6; ++i) {
        const int v = i < 3 ? lo : hi;
        if (format == Format::Bsp2) putFloat(out, float(v));
        else put16(out, uint16_t(int16_t(v)));
    }
}
void putCount(std::vector<uint8_t>& out, Format format, uint32_t v) {
    if (format == Format::Bsp29) put16(out, uint16_t(v));
    else put32(out, v);
}

// The level as a .bsp file: header, then the lumps planes, visibility, nodes, leaves and
// models in that order (the others empty), the models lump last so that every byte of the
// file belongs to the header or a lump.
std::vector<uint8_t> writeBsp(const TestLevel& level, Format format) {
    std::vector<uint8_t> lumps[15];
    for (const auto& [normal, dist] : level.planes) {
        for (int i = 0; i < 3; ++i) putFloat(lumps[1], float(normal[i]));
        putFloat(lumps[1], dist);
        put32(lumps[1], 0);
    }
    lumps[4] = level.visdata;
    for (const TestNode& n : level.nodes) {
        put32(lumps[5], uint32_t(n.plane));
        if (format == Format::Bsp29) {
            put16(lumps[5], uint16_t(int16_t(n.front)));
            put16(lumps[5], uint16_t(int16_t(n.back)));
        } else {
            put32(lumps[5], uint32_t(n.front));
            put32(lumps[5], uint32_t(n.back));
        }
        putBounds(lumps[5], format, -128, 128);
        putCount(lumps[5], format, 0);
        putCount(lumps[5], format, 0);
    }
    for (const TestLeaf& l : level.leaves) {
        put32(lumps[10], uint32_t(l.contents));
        put32(lumps[10], uint32_t(l.visofs));
        putBounds(lumps[10], format, -128, 128);
        putCount(lumps[10], format, 0);
        putCount(lumps[10], format, 0);
        put32(lumps[10], 0); // ambient levels
    }
    for (int i = 0; i < 3; ++i) putFloat(lumps[14], -128.0f);
    for (int i = 0; i < 3; ++i) putFloat(lumps[14], 128.0f);
    for (int i = 0; i < 3; ++i) putFloat(lumps[14], 0.0f);
    put32(lumps[14], uint32_t(level.headNode));
    for (int i = 0; i < 3; ++i) put32(lumps[14], 0); // clip hulls
    put32(lumps[14], uint32_t(level.visLeafs));
    put32(lumps[14], 0);
    put32(lumps[14], 0);

    std::vector<uint8_t> file;
    if (format == Format::Bsp29) put32(file, 29);
    else file.insert(file.end(), {uint8_t('B'), uint8_t('S'), uint8_t('P'), uint8_t('2')});
    if (format == Format::Bsp2psb) std::memcpy(file.data(), "2PSB", 4);
    size_t offset = 4 + 15 * 8;
    const int order[] = {1, 4, 5, 10, 14};
    std::vector<size_t> offsets(15, offset);
    for (const int lump : order) {
        offsets[size_t(lump)] = offset;
        offset += lumps[lump].size();
    }
    for (int lump = 0; lump < 15; ++lump) {
        put32(file, uint32_t(offsets[size_t(lump)]));
        put32(file, uint32_t(lumps[lump].size()));
    }
    for (const int lump : order) file.insert(file.end(), lumps[lump].begin(), lumps[lump].end());
    return file;
}

// Two rooms side by side and a third one below, along x: leaf 1 (x >= 0), leaf 2
// (-64 <= x < 0), solid leaf 0 (x < -64); leaves 3..20 are not in the tree (as the leaves
// of other models are not in the world's) but have rows, so that rows are 3 bytes long
// and runs of zeros appear. Leaf 1 sees itself and leaf 20; leaf 2 sees leaves 1 and 2;
// leaves 3..20 share a row seeing leaf 9 only.
TestLevel twoRooms() {
    TestLevel level;
    level.planes = {{Vec3(1, 0, 0), 0.0f}, {Vec3(1, 0, 0), -64.0f}};
    level.nodes = {{0, -2, 1}, {1, -3, -1}};
    level.visLeafs = 20;
    // Leaf 1: bits 0 and 19 -> bytes 0x01 0x00 0x08: 0x01, a run of one zero, 0x08.
    // Leaf 2: bits 0 and 1 -> bytes 0x03 0x00 0x00: 0x03, a run of two zeros.
    // Leaves 3..20: bit 8 -> bytes 0x00 0x01 0x00: a run of one, 0x01, a run of one.
    level.visdata = {0x01, 0x00, 0x01, 0x08, 0x03, 0x00, 0x02, 0x00, 0x01, 0x01, 0x00, 0x01};
    level.leaves.push_back({kQuakeContentsSolid, -1});
    level.leaves.push_back({kQuakeContentsEmpty, 0});
    level.leaves.push_back({kQuakeContentsEmpty, 4});
    for (int i = 3; i <= 20; ++i) level.leaves.push_back({kQuakeContentsEmpty, 7});
    return level;
}

void expectTwoRooms(const QuakeBsp& bsp) {
    ASSERT_EQ(bsp.leaves.size(), 21u);
    EXPECT_EQ(bsp.nodes.size(), 2u);
    EXPECT_EQ(bsp.visLeafs, 20);
    EXPECT_EQ(bsp.findLeaf(Vec3(10, 0, 0)), 1);
    EXPECT_EQ(bsp.findLeaf(Vec3(0, 5, 5)), 1); // on the plane: its front
    EXPECT_EQ(bsp.findLeaf(Vec3(-10, 0, 0)), 2);
    EXPECT_EQ(bsp.findLeaf(Vec3(-100, 0, 0)), 0);
    EXPECT_EQ(bsp.leaves[0].contents, kQuakeContentsSolid);
    EXPECT_EQ(bsp.leaves[1].contents, kQuakeContentsEmpty);
    EXPECT_EQ(bsp.leaves[1].mins, Vec3(-128, -128, -128));
    EXPECT_EQ(bsp.leaves[1].maxs, Vec3(128, 128, 128));
    ASSERT_TRUE(bsp.hasVisibility());
    // Against the rows written above, bit by bit.
    for (int32_t from = 1; from <= 20; ++from)
        for (int32_t to = 1; to <= 20; ++to) {
            bool expected = false;
            if (from == 1) expected = to == 1 || to == 20;
            else if (from == 2) expected = to == 1 || to == 2;
            else expected = to == 9;
            EXPECT_EQ(bsp.visible(from, to), expected) << from << " -> " << to;
        }
    EXPECT_EQ(bsp.countVisible(1), 2u);
    EXPECT_EQ(bsp.countVisible(5), 1u);
}

std::string errorOf(const std::vector<uint8_t>& file) {
    const QuakeBspReadResult r = readQuakeBsp(file);
    EXPECT_FALSE(r.bsp.has_value());
    return r.error;
}

} // namespace

TEST(QuakeBspReader, ReadsEachFormat) {
    for (const Format format : {Format::Bsp29, Format::Bsp2, Format::Bsp2psb}) {
        const QuakeBspReadResult r = readQuakeBsp(writeBsp(twoRooms(), format));
        ASSERT_TRUE(r.bsp.has_value()) << r.error;
        EXPECT_EQ(r.bsp->format, format == Format::Bsp29 ? "BSP29" : format == Format::Bsp2 ? "BSP2" : "2PSB");
        expectTwoRooms(*r.bsp);
    }
}

TEST(QuakeBspReader, NoVisdataSeesEverything) {
    TestLevel level = twoRooms();
    level.visdata.clear();
    for (TestLeaf& l : level.leaves) l.visofs = -1;
    const QuakeBspReadResult r = readQuakeBsp(writeBsp(level, Format::Bsp29));
    ASSERT_TRUE(r.bsp.has_value()) << r.error;
    EXPECT_FALSE(r.bsp->hasVisibility());
    EXPECT_TRUE(r.bsp->visible(1, 2));
    EXPECT_EQ(r.bsp->countVisible(3), 20u);
}

TEST(QuakeBspReader, EveryShortBufferIsAnError) {
    for (const Format format : {Format::Bsp29, Format::Bsp2}) {
        const std::vector<uint8_t> file = writeBsp(twoRooms(), format);
        for (size_t size = 0; size < file.size(); ++size) {
            const std::vector<uint8_t> cut(file.begin(), file.begin() + std::ptrdiff_t(size));
            const std::string error = errorOf(cut);
            EXPECT_EQ(error.rfind("bsp: ", 0), 0u) << size << ": " << error;
        }
    }
    EXPECT_NE(errorOf({}).find("shorter than a header"), std::string::npos);
}

TEST(QuakeBspReader, CorruptPartsAreNamed) {
    const auto corrupt = [](auto change) {
        TestLevel level = twoRooms();
        change(level);
        return errorOf(writeBsp(level, Format::Bsp29));
    };
    EXPECT_NE(corrupt([](TestLevel& l) { l.nodes[1].front = -30; }).find("child -30 out of range"), std::string::npos);
    EXPECT_NE(corrupt([](TestLevel& l) { l.nodes[0].front = 2; }).find("child 2 out of range"), std::string::npos);
    EXPECT_NE(corrupt([](TestLevel& l) { l.nodes[1].front = 0; }).find("reached twice"), std::string::npos); // a loop
    EXPECT_NE(corrupt([](TestLevel& l) { l.nodes[0].plane = 7; }).find("plane 7 out of range"), std::string::npos);
    EXPECT_NE(corrupt([](TestLevel& l) { l.headNode = 5; }).find("head node 5"), std::string::npos);
    EXPECT_NE(corrupt([](TestLevel& l) { l.visLeafs = 21; }).find("21 vis leaves"), std::string::npos);
    EXPECT_NE(corrupt([](TestLevel& l) { l.leaves[2].visofs = 12; }).find("offset 12 past"), std::string::npos);
    EXPECT_NE(corrupt([](TestLevel& l) { l.visdata[6] = 3; }).find("run of 3 zero bytes where 2 are left"),
              std::string::npos);
    EXPECT_NE(corrupt([](TestLevel& l) { l.visdata[6] = 0; }).find("run of 0"), std::string::npos);
    EXPECT_NE(corrupt([](TestLevel& l) { l.visdata.resize(11); }).find("ends inside a run"), std::string::npos);
    EXPECT_NE(corrupt([](TestLevel& l) { l.visdata.resize(10); }).find("past the end of the lump"), std::string::npos);

    std::vector<uint8_t> file = writeBsp(twoRooms(), Format::Bsp29);
    file[0] = 30;
    EXPECT_NE(errorOf(file).find("version 30"), std::string::npos);
    file = writeBsp(twoRooms(), Format::Bsp29);
    file[4 + 10 * 8 + 4] = 1; // the leaves lump's length: not a multiple of a leaf
    EXPECT_NE(errorOf(file).find("not a multiple of 28"), std::string::npos);
    file = writeBsp(twoRooms(), Format::Bsp29);
    file[4 + 5 * 8 + 3] = 0x80; // the nodes lump's offset: negative
    EXPECT_NE(errorOf(file).find("lump 'nodes' lies outside the file"), std::string::npos);
}

// Random bytes changed anywhere: an answer or an error, never a crash or a hang (findLeaf
// on every answer must end: the tree is checked to be a tree).
TEST(QuakeBspReader, RandomDamageNeverCrashes) {
    std::mt19937 random(39);
    const std::vector<uint8_t> original = writeBsp(twoRooms(), Format::Bsp2psb);
    int read = 0, refused = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        std::vector<uint8_t> file = original;
        const int changes = 1 + int(random() % 4);
        for (int c = 0; c < changes; ++c) file[random() % file.size()] = uint8_t(random());
        const QuakeBspReadResult r = readQuakeBsp(file);
        if (!r.bsp) {
            EXPECT_FALSE(r.error.empty());
            ++refused;
            continue;
        }
        ++read;
        for (const Vec3& p : {Vec3(10, 0, 0), Vec3(-10, 0, 0), Vec3(-100, 0, 0)}) {
            const int32_t leaf = r.bsp->findLeaf(p);
            EXPECT_LT(size_t(leaf), r.bsp->leaves.size());
        }
    }
    EXPECT_GT(read, 0);
    EXPECT_GT(refused, 0);
}
