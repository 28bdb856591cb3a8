#include "compile/bsp_builder.h"
#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "io/obsp_format.h"
#include "io/tree_text_dump.h"
#include "portal/portal_generation.h"
#include "same_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <random>
#include <sstream>

namespace shallot {
namespace {

using namespace test;

// ---- building trees by hand ----

void addPlanePair(BspTree& t, const Vec3& normal, double dist) {
    const Plane p{normal, dist};
    t.planes.push_back(p);
    t.planes.push_back(p.flipped());
}

Pose makePose(const char* name, const Vec3& mins, const Vec3& maxs, uint32_t colour) {
    Pose p;
    p.name = name;
    p.mins = mins;
    p.maxs = maxs;
    p.colour = colour;
    return p;
}

void addPolygon(BspTree& t, PlaneId plane, uint8_t pose, int32_t brush, const std::vector<Vec3>& vertices) {
    t.polygons.add({plane, pose, brush}, vertices);
}

LeafInfo makeLeaf(const Vec3& point, double clearance, double volume, uint32_t first, uint32_t count, uint16_t depth,
                  bool degenerate = false) {
    LeafInfo l;
    l.interiorPoint = point;
    l.clearance = clearance;
    l.volume = volume;
    l.firstPolygon = first;
    l.polygonCount = count;
    l.depth = depth;
    l.degenerate = degenerate;
    return l;
}

// Three poses, three nodes in pre-order, four leaves, five polygons:
//   node 0 (x >= 0): front node 1, back leaf 0
//   node 1 (z >= 64): front leaf 1, back node 2
//   node 2 (0.6x + 0.8y >= 0.1): front leaf 2, back leaf 3
BspTree makeTree() {
    BspTree t;
    t.poses.push_back(makePose("point", Vec3::Zero(), Vec3::Zero(), 0xff8040ffu));
    t.poses.push_back(makePose("player", Vec3(-16, -16, -24), Vec3(16, 16, 32), 0x20c040ffu));
    t.poses.push_back(makePose("large", Vec3(-32, -32, -24), Vec3(32, 32, 64), 0x4060e0ffu));
    addPlanePair(t, Vec3(1, 0, 0), 0.0);
    addPlanePair(t, Vec3(0, 0, 1), 64.0);
    addPlanePair(t, Vec3(0.6, 0.8, 0), 0.1);
    t.nodes = {{0, 1, leafRef(0)}, {2, leafRef(1), 2}, {4, leafRef(2), leafRef(3)}};
    t.root = 0;
    t.leafSolid = {0b111, 0b000, 0b110, 0b010};
    t.leaves = {makeLeaf(Vec3(-64, 0, 0), 64.0, 2097152.0, 0, 1, 1),
                makeLeaf(Vec3(64, 0, 96), 1.0 / 3.0, 1e5, 1, 0, 2),
                makeLeaf(Vec3(64, 64, 0), 0.1, 12345.678, 1, 2, 3, true),
                makeLeaf(Vec3(1e-300, -64, -0.0), 5e-7, 0.0, 3, 2, 3)};
    addPolygon(t, 1, 0, 7, {Vec3(0, -128, -128), Vec3(0, 128, -128), Vec3(0, 128, 128)});
    addPolygon(t, 4, 1, 2, {Vec3(0.1, 0, 0), Vec3(0.1, 0, 1), Vec3(-1, 0.95, 1), Vec3(-1, 0.95, 0)});
    addPolygon(t, 3, 2, -1, {Vec3(1, 2, 3), Vec3(4, 5, 6), Vec3(7, 8.5, 9)});
    addPolygon(t, 5, 0, 0, {});
    addPolygon(t, 2, 1, 123456, {Vec3(std::numbers::pi, -std::numbers::pi, 1e10), Vec3(2, 3, 4), Vec3(-2, -3, -4)});
    t.bounds = {Vec3(-128, -128, -128), Vec3(128, 128, 128)};
    return t;
}

// ---- byte-level helpers ----

std::string toBytes(const BspTree& t) {
    std::ostringstream out;
    writeObsp(t, out);
    EXPECT_TRUE(out.good());
    return out.str();
}

ObspReadResult fromBytes(const std::string& bytes, size_t maxBytes = kObspMaxFileBytes) {
    std::istringstream in(bytes);
    return readObsp(in, maxBytes);
}

uint32_t getU32(const std::string& b, size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(uint8_t(b[at + size_t(i)])) << (8 * i);
    return v;
}

void putLE(std::string& b, size_t at, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) b[at + size_t(i)] = char((v >> (8 * i)) & 0xff);
}

// Recomputes the header and section checksums, as a hostile writer would. Stops at the
// first section frame that does not fit.
void fixChecksums(std::string& b) {
    if (b.size() < 96) return;
    putLE(b, 92, obspCrc32(b.data(), 92), 4);
    size_t pos = 96;
    while (b.size() - pos >= 12) {
        uint64_t length = 0;
        for (int i = 0; i < 8; ++i) length |= uint64_t(uint8_t(b[pos + 4 + size_t(i)])) << (8 * i);
        if (length > b.size() - pos - 12 || b.size() - pos - 12 - length < 4) return;
        const size_t crcAt = pos + 12 + size_t(length);
        putLE(b, crcAt, obspCrc32(b.data() + pos, 12 + size_t(length)), 4);
        pos = crcAt + 4;
    }
}

// The byte offset of the payload of the section with this tag.
size_t payloadOf(const std::string& b, const char* tag) {
    size_t pos = 96;
    while (pos + 12 <= b.size()) {
        uint64_t length = 0;
        for (int i = 0; i < 8; ++i) length |= uint64_t(uint8_t(b[pos + 4 + size_t(i)])) << (8 * i);
        if (std::memcmp(b.data() + pos, tag, 4) == 0) return pos + 12;
        pos += 16 + size_t(length);
    }
    ADD_FAILURE() << "no section " << tag;
    return 0;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Every access a user of a loaded tree makes must stay in range.
void exerciseTree(const BspTree& t, std::mt19937& rng) {
    std::uniform_real_distribution<double> u(-200.0, 200.0);
    for (int i = 0; i < 20; ++i) {
        const Vec3 p(u(rng), u(rng), u(rng));
        const int32_t leaf = t.findLeaf(p);
        ASSERT_GE(leaf, 0);
        ASSERT_LT(size_t(leaf), t.leaves.size());
        (void)t.solidityAt(p);
        const LeafInfo& l = t.leaves[size_t(leaf)];
        for (uint32_t k = 0; k < l.polygonCount; ++k) {
            ASSERT_LT(size_t(l.firstPolygon) + k, t.polygons.size());
            const LeafPolygon& poly = t.polygons[size_t(l.firstPolygon) + k];
            ASSERT_LT(poly.pose, t.poses.size());
            ASSERT_LT(size_t(poly.plane), t.planes.size());
        }
    }
}

// ---- round trips ----

TEST(ObspFormat, RoundTripThroughStreamIsExact) {
    const BspTree tree = makeTree();
    EXPECT_EQ(obspWriteProblem(tree), "");
    const std::string bytes = toBytes(tree);
    ASSERT_EQ(bytes.substr(0, 4), "OBSP");
    EXPECT_EQ(getU32(bytes, 4), kObspVersion);
    const ObspReadResult r = fromBytes(bytes);
    ASSERT_TRUE(r.tree) << r.error;
    EXPECT_EQ(r.error, "");
    expectSameTree(tree, *r.tree);
    EXPECT_EQ(r.info.version, kObspVersion);
    EXPECT_EQ(r.info.poses, 3u);
    EXPECT_EQ(r.info.planes, 6u);
    EXPECT_EQ(r.info.nodes, 3u);
    EXPECT_EQ(r.info.leaves, 4u);
    EXPECT_EQ(r.info.polygons, 5u);
    EXPECT_EQ(r.info.depth, 3);
    // Writing the loaded tree gives the same bytes.
    EXPECT_EQ(toBytes(*r.tree), bytes);
}

TEST(ObspFormat, RoundTripOfMinimalTrees) {
    BspTree single; // one leaf, no nodes, no poses, default (empty, infinite) bounds
    single.leafSolid = {0};
    single.leaves.resize(1);
    ObspReadResult r = fromBytes(toBytes(single));
    ASSERT_TRUE(r.tree) << r.error;
    expectSameTree(single, *r.tree);
    EXPECT_EQ(r.info.depth, 0);

    BspTree all = makeTree(); // 64 poses: every solidity bit is meaningful
    for (int i = 3; i < kMaxPoses; ++i)
        all.poses.push_back(makePose(("pose" + std::to_string(i)).c_str(), Vec3::Zero(), Vec3::Ones(), 0));
    all.leafSolid[1] = ~uint64_t(0);
    r = fromBytes(toBytes(all));
    ASSERT_TRUE(r.tree) << r.error;
    expectSameTree(all, *r.tree);
}

class ObspFile : public ::testing::Test {
protected:
    void SetUp() override {
        std::random_device rd;
        dir = std::filesystem::temp_directory_path() / ("shallot_obsp_test_" + std::to_string(rd()));
        std::filesystem::create_directories(dir);
    }
    void TearDown() override { std::filesystem::remove_all(dir); }
    std::filesystem::path dir;
};

TEST_F(ObspFile, SaveAndLoadRoundTrip) {
    const BspTree tree = makeTree();
    const std::string path = (dir / "map.obsp").string();
    ASSERT_EQ(saveObspFile(tree, path), "");
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
    ObspReadResult r = readObspFile(path);
    ASSERT_TRUE(r.tree) << r.error;
    expectSameTree(tree, *r.tree);

    // Saving over an existing file replaces it.
    BspTree other = makeTree();
    other.leafSolid[1] = 0b001;
    ASSERT_EQ(saveObspFile(other, path), "");
    r = readObspFile(path);
    ASSERT_TRUE(r.tree) << r.error;
    EXPECT_EQ(r.tree->leafSolid[1], 0b001u);

    // A failed save (a tree the format rejects) leaves the old file intact.
    BspTree bad = makeTree();
    bad.nodes[0].plane = 99;
    EXPECT_TRUE(contains(saveObspFile(bad, path), "node plane out of range"));
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
    r = readObspFile(path);
    ASSERT_TRUE(r.tree) << r.error;
    EXPECT_EQ(r.tree->leafSolid[1], 0b001u);

    // Unwritable and missing paths report errors.
    EXPECT_NE(saveObspFile(tree, (dir / "no/such/dir/map.obsp").string()), "");
    r = readObspFile((dir / "missing.obsp").string());
    EXPECT_FALSE(r.tree);
    EXPECT_TRUE(contains(r.error, "cannot open"));
}

// ---- hostile input ----

TEST(ObspFormat, EveryTruncationIsAnError) {
    const std::string bytes = toBytes(makeTree());
    for (size_t length = 0; length < bytes.size(); ++length) {
        const ObspReadResult r = fromBytes(bytes.substr(0, length));
        EXPECT_FALSE(r.tree) << length;
        EXPECT_TRUE(contains(r.error, "obsp: ")) << length << ": " << r.error;
    }
    // And a trailing byte too many.
    const ObspReadResult r = fromBytes(bytes + '\0');
    EXPECT_FALSE(r.tree);
    EXPECT_TRUE(contains(r.error, "trailing bytes")) << r.error;
}

TEST(ObspFormat, EverySingleByteFlipIsAnError) {
    const std::string bytes = toBytes(makeTree());
    for (size_t at = 0; at < bytes.size(); ++at)
        for (uint8_t mask : {uint8_t(0x01), uint8_t(0x80), uint8_t(0xff)}) {
            std::string corrupt = bytes;
            corrupt[at] = char(uint8_t(corrupt[at]) ^ mask);
            const ObspReadResult r = fromBytes(corrupt);
            EXPECT_FALSE(r.tree) << "byte " << at << " mask " << int(mask);
            EXPECT_FALSE(r.error.empty());
        }
}

TEST(ObspFormat, ChecksumErrorNamesSectionAndOffset) {
    std::string bytes = toBytes(makeTree());
    const size_t nodes = payloadOf(bytes, "NODE");
    bytes[nodes] ^= 1;
    const size_t crcAt = nodes + 3 * 12;
    EXPECT_EQ(fromBytes(bytes).error, "obsp: checksum mismatch in section 'nodes' at byte " + std::to_string(crcAt));
    bytes = toBytes(makeTree());
    bytes[20] ^= 1;
    EXPECT_EQ(fromBytes(bytes).error, "obsp: checksum mismatch in section 'header' at byte 92");
}

TEST(ObspFormat, RandomCorruptionWithForgedChecksumsNeverCrashes) {
    const std::string bytes = toBytes(makeTree());
    std::string check = bytes;
    fixChecksums(check);
    ASSERT_EQ(check, bytes); // the forger agrees with the writer
    std::mt19937 rng(1234);
    size_t accepted = 0;
    for (size_t at = 0; at < bytes.size(); ++at)
        for (int trial = 0; trial < 4; ++trial) {
            std::string corrupt = bytes;
            corrupt[at] = char(rng() & 0xff);
            fixChecksums(corrupt);
            const ObspReadResult r = fromBytes(corrupt);
            if (!r.tree) {
                EXPECT_FALSE(r.error.empty());
                continue;
            }
            ++accepted; // e.g. a changed coordinate: valid, and must be safe to use
            EXPECT_EQ(obspWriteProblem(*r.tree), "");
            exerciseTree(*r.tree, rng);
        }
    EXPECT_GT(accepted, 0u);
}

TEST(ObspFormat, ForgedBadIndicesAreRejected) {
    const std::string good = toBytes(makeTree());
    struct Case {
        const char* section;
        size_t offset; // within the payload
        uint64_t value;
        int bytes;
        const char* expected;
    };
    const uint64_t nan = std::bit_cast<uint64_t>(std::numeric_limits<double>::quiet_NaN());
    const uint64_t inf = std::bit_cast<uint64_t>(std::numeric_limits<double>::infinity());
    const Case cases[] = {
        {"NODE", 0, 99, 4, "node 0: node plane out of range"},
        {"NODE", 0, uint64_t(-1), 4, "node 0: node plane out of range"},
        {"NODE", 12 + 4, 0, 4, "node 1: node child does not follow its parent"},      // back edge: a cycle
        {"NODE", 12 + 8, 1, 4, "node 1: node child does not follow its parent"},      // self loop
        {"NODE", 24 + 4, 3, 4, "node 2: node reference out of range"},
        {"NODE", 24 + 8, uint32_t(leafRef(4)), 4, "node 2: leaf reference out of range"},
        {"PLAN", 8, nan, 8, "plane 0: non-finite plane"},
        {"PLAN", 64 + 24, inf, 8, "plane 4: non-finite plane"},
        {"SOLI", 8, 0b1000, 8, "leaf 1: solidity bit set for a pose that does not exist"},
        {"LEAF", 51 + 40, 6, 4, "leaf 1: leaf polygon range out of range"},            // firstPolygon
        {"LEAF", 51 * 3 + 44, 3, 4, "leaf 3: leaf polygon range out of range"},        // polygonCount
        {"LEAF", 51 * 2 + 50, 2, 1, "leaf 2: bad degenerate flag"},
        {"LEAF", 24, nan, 8, "leaf 0: non-finite leaf data"},
        {"POLY", 4, 3, 1, "polygon 0: polygon pose out of range"},
        {"POLY", 0, 6, 4, "polygon 0: polygon plane out of range"},
        {"POLY", 13, inf, 8, "polygon 0: non-finite polygon vertex"},
        {"POLY", 9, 14, 4, "polygon 0: more vertices than the header's total"},
        {"POSE", 0, 5000, 4, "pose 0: pose name too long"},
        {"POSE", 4 + 5 + 24 + 0, std::bit_cast<uint64_t>(-1.0), 8, "pose 0: invalid pose"}, // maxs < mins
    };
    for (const Case& c : cases) {
        std::string bytes = good;
        putLE(bytes, payloadOf(bytes, c.section) + c.offset, c.value, c.bytes);
        fixChecksums(bytes);
        const ObspReadResult r = fromBytes(bytes);
        EXPECT_FALSE(r.tree) << c.expected;
        EXPECT_TRUE(contains(r.error, c.expected)) << r.error;
        EXPECT_TRUE(contains(r.error, " at byte ")) << r.error;
    }
    // Header fields: root, bounds and flags.
    const struct {
        size_t at;
        uint64_t value;
        int bytes;
        const char* expected;
    } headerCases[] = {
        {40, 1, 4, "root must be node 0"},
        {44, nan, 8, "non-finite bounds"},
        {8, 16, 4, "unknown flags"},
        {4, 0, 4, "unsupported file version 0"},
    };
    for (const auto& c : headerCases) {
        std::string bytes = good;
        putLE(bytes, c.at, c.value, c.bytes);
        fixChecksums(bytes);
        const ObspReadResult r = fromBytes(bytes);
        EXPECT_FALSE(r.tree);
        EXPECT_TRUE(contains(r.error, c.expected)) << r.error;
    }
}

TEST(ObspFormat, HugeCountsAreRejectedBeforeAllocating) {
    const std::string good = toBytes(makeTree());
    const struct {
        size_t at;
        uint64_t value;
        int bytes;
        const char* expected;
    } cases[] = {
        {12, 65, 4, "pose count 65 exceeds 64"},
        {12, 0xffffffff, 4, "pose count"},
        {16, 0x7ffffffe, 4, "larger than the file"},
        {16, 0xfffffffe, 4, "bad plane count"},
        {16, 7, 4, "bad plane count"},
        {20, 0x7fffffff, 4, "larger than the file"},
        {20, 0xffffffff, 4, "bad node count"},
        {24, 0x7fffffff, 4, "larger than the file"},
        {24, 0, 4, "bad leaf count"},
        {28, 0xffffffff, 4, "larger than the file"},
        {32, ~uint64_t(0), 8, "vertex count"},
        {32, uint64_t(1) << 40, 8, "larger than the file"},
    };
    for (const auto& c : cases) {
        std::string bytes = good;
        putLE(bytes, c.at, c.value, c.bytes);
        fixChecksums(bytes);
        const ObspReadResult r = fromBytes(bytes);
        EXPECT_FALSE(r.tree);
        EXPECT_TRUE(contains(r.error, c.expected)) << r.error;
        EXPECT_FALSE(contains(r.error, "out of memory")) << r.error;
    }
    // A forged section length is checked against the file too.
    std::string bytes = good;
    putLE(bytes, 96 + 4, ~uint64_t(0), 8);
    fixChecksums(bytes);
    EXPECT_TRUE(contains(fromBytes(bytes).error, "section 'poses' runs past the end of the file at byte 100"));
    // And the whole input against maxBytes.
    const ObspReadResult r = fromBytes(good, good.size() - 1);
    EXPECT_FALSE(r.tree);
    EXPECT_TRUE(contains(r.error, "larger than the limit")) << r.error;
    EXPECT_TRUE(fromBytes(good, good.size()).tree);
}

TEST(ObspFormat, NewerVersionIsReported) {
    std::string bytes = toBytes(makeTree());
    putLE(bytes, 4, 7, 4);
    EXPECT_EQ(fromBytes(bytes).error, "obsp: file version 7 is newer than this program supports (6)");
    putLE(bytes, 4, 1000, 4);
    fixChecksums(bytes);
    EXPECT_EQ(fromBytes(bytes).error, "obsp: file version 1000 is newer than this program supports (6)");
    EXPECT_TRUE(contains(fromBytes("OBSX" + bytes.substr(4)).error, "bad magic"));
}

// ---- node order ----

// A random tree of axial and slanted splits, nodes in pre-order.
BspTree makeRandomTree(std::mt19937& rng, int nodeCount) {
    BspTree t;
    t.poses.push_back(makePose("point", Vec3::Zero(), Vec3::Zero(), 0));
    t.poses.push_back(makePose("box", Vec3::Constant(-1), Vec3::Constant(1), 0));
    t.bounds = {Vec3::Constant(-200), Vec3::Constant(200)};
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    int leaves = 0;
    auto newLeaf = [&] {
        t.leafSolid.push_back(rng() & 3);
        t.leaves.push_back(makeLeaf(Vec3(u(rng), u(rng), u(rng)), 1.0, 1.0, 0, 0, 0));
        return leafRef(leaves++);
    };
    // Grows by replacing a random leaf child with a new node.
    t.root = newLeaf();
    std::vector<std::pair<int32_t, int>> leafSlots{{-1, 0}}; // (node, 0 front / 1 back); -1 = root
    for (int i = 0; i < nodeCount; ++i) {
        const size_t pick = rng() % leafSlots.size();
        const auto [parent, side] = leafSlots[pick];
        const Vec3 n = Vec3(u(rng), u(rng), u(rng)).normalized();
        addPlanePair(t, n, 100.0 * u(rng));
        const int32_t id = int32_t(t.nodes.size());
        const ChildRef old = parent < 0 ? t.root : (side == 0 ? t.nodes[size_t(parent)].front : t.nodes[size_t(parent)].back);
        t.nodes.push_back({PlaneId(t.planes.size() - 2 + (rng() & 1)), old, newLeaf()});
        if (parent < 0) t.root = id;
        else (side == 0 ? t.nodes[size_t(parent)].front : t.nodes[size_t(parent)].back) = id;
        leafSlots[pick] = {id, 0};
        leafSlots.push_back({id, 1});
    }
    return t;
}

// The same tree with its nodes stored in a random order.
BspTree shuffledNodes(const BspTree& t, std::mt19937& rng) {
    std::vector<int32_t> perm(t.nodes.size());
    for (size_t i = 0; i < perm.size(); ++i) perm[i] = int32_t(i);
    std::shuffle(perm.begin(), perm.end(), rng);
    auto remap = [&](ChildRef c) { return isLeaf(c) ? c : perm[size_t(c)]; };
    BspTree s = t;
    for (size_t i = 0; i < t.nodes.size(); ++i)
        s.nodes[size_t(perm[i])] = {t.nodes[i].plane, remap(t.nodes[i].front), remap(t.nodes[i].back)};
    s.root = remap(t.root);
    return s;
}

// Reference pre-order renumbering, written independently of the writer's.
void preOrder(const BspTree& t, ChildRef r, std::vector<BspNode>& out) {
    if (isLeaf(r)) return;
    const BspNode& n = t.nodes[size_t(r)];
    const size_t self = out.size();
    out.push_back({n.plane, n.front, n.back});
    if (!isLeaf(n.front)) {
        out[self].front = ChildRef(out.size());
        preOrder(t, n.front, out);
    }
    if (!isLeaf(n.back)) {
        out[self].back = ChildRef(out.size());
        preOrder(t, n.back, out);
    }
}
BspTree preOrdered(const BspTree& t) {
    BspTree s = t;
    s.nodes.clear();
    preOrder(t, t.root, s.nodes);
    if (!isLeaf(t.root)) s.root = 0;
    return s;
}

TEST(ObspFormat, NonPreOrderNodesAreRenumbered) {
    std::mt19937 rng(42);
    for (int round = 0; round < 10; ++round) {
        const BspTree original = makeRandomTree(rng, 60);
        const BspTree shuffled = shuffledNodes(original, rng);
        ASSERT_EQ(obspWriteProblem(shuffled), "");
        const ObspReadResult r = fromBytes(toBytes(shuffled));
        ASSERT_TRUE(r.tree) << r.error;
        const BspTree& loaded = *r.tree;
        ASSERT_EQ(loaded.nodes.size(), shuffled.nodes.size());
        EXPECT_EQ(loaded.root, 0);
        for (size_t i = 0; i < loaded.nodes.size(); ++i)
            for (ChildRef c : {loaded.nodes[i].front, loaded.nodes[i].back})
                if (!isLeaf(c)) {
                    EXPECT_GT(size_t(c), i);
                }
        // Renumbering gives exactly the pre-order numbering (front subtree first).
        expectSameTree(preOrdered(original), loaded);
        std::uniform_real_distribution<double> u(-200.0, 200.0);
        for (int i = 0; i < 2000; ++i) {
            const Vec3 p(u(rng), u(rng), u(rng));
            ASSERT_EQ(loaded.findLeaf(p), shuffled.findLeaf(p));
            ASSERT_EQ(loaded.solidityAt(p), shuffled.solidityAt(p));
        }
    }
}

TEST(ObspFormat, UnwritableTreesWriteNothing) {
    auto expectProblem = [](const BspTree& t, const char* expected) {
        EXPECT_TRUE(contains(obspWriteProblem(t), expected)) << obspWriteProblem(t);
        std::ostringstream out;
        writeObsp(t, out);
        EXPECT_TRUE(out.fail());
        EXPECT_EQ(out.str(), "");
    };
    BspTree t = makeTree();
    t.nodes[2].back = 1; // node 1 -> node 2 -> node 1
    expectProblem(t, "cycle");
    t = makeTree();
    t.planes.pop_back();
    expectProblem(t, "odd plane count");
    t = makeTree();
    t.planes[3].dist = 1.0;
    expectProblem(t, "plane 3: is not the flip");
    t = makeTree();
    for (int i = 0; i < kMaxPoses; ++i) t.poses.push_back(t.poses[0]);
    expectProblem(t, "more than 64 poses");
    t = makeTree();
    t.polygons[2].pose = 3;
    expectProblem(t, "polygon 2: polygon pose out of range");
    t = makeTree();
    t.leafSolid.pop_back();
    expectProblem(t, "differ in size");
    t = makeTree();
    t.root = 5;
    expectProblem(t, "root node out of range");
    t = makeTree();
    t.leaves[0].volume = std::nan("");
    expectProblem(t, "leaf 0: non-finite leaf data");
    expectProblem(BspTree{}, "no leaves");
}

// ---- text dump ----

TEST(TreeText, DumpContainsExpectedLines) {
    std::ostringstream out;
    dumpTreeText(makeTree(), out);
    const std::string text = out.str();
    const char* expected[] = {
        "tree: 3 poses, 6 planes, 3 nodes, 4 leaves, 5 polygons\n",
        "bounds (-128 -128 -128) (128 128 128)\n",
        "pose 0 point box (0 0 0) (0 0 0) colour ff8040ff\n",
        "pose 1 player box (-16 -16 -24) (16 16 32) colour 20c040ff\n",
        "planes used by nodes:\n  plane 0 (1 0 0 0)\n  plane 2 (0 0 1 64)\n"
        "  plane 4 (0.59999999999999998 0.80000000000000004 0 0.10000000000000001)\n",
        "tree:\nnode 0 plane 0 (1 0 0 0)\n  node 1 plane 2 (0 0 1 64)\n"
        "    leaf 1 solid {} empty {point,player,large} polys 0 point (64 0 96) clearance 0.33333333333333331",
        "\n    node 2 plane 4 (0.59999999999999998 0.80000000000000004 0 0.10000000000000001)\n"
        "      leaf 2 solid {player,large} empty {point} polys 2 point (64 64 0) clearance 0.10000000000000001"
        " volume 12345.678 depth 3 degenerate\n",
        "        poly 1 plane 4 pose player brush 2 (0.10000000000000001 0 0)",
        "        poly 2 plane 3 pose large brush -1 (1 2 3) (4 5 6) (7 8.5 9)\n",
        "      leaf 3 solid {player} empty {point,large} polys 2 point (1e-300 -64 -0)",
        "\n  leaf 0 solid {point,player,large} empty {} polys 1",
    };
    for (const char* line : expected) EXPECT_TRUE(contains(text, line)) << "missing:\n" << line << "\nin:\n" << text;

    // A number printed by the dump reads back exactly.
    const size_t at = text.find("clearance 0.333");
    ASSERT_NE(at, std::string::npos);
    EXPECT_EQ(std::strtod(text.c_str() + at + 10, nullptr), 1.0 / 3.0);
}

TEST(TreeText, MalformedTreesTerminate) {
    BspTree t = makeTree();
    t.nodes[2].back = 1;     // a cycle
    t.nodes[2].front = 9;    // out of range
    t.nodes[0].back = leafRef(40);
    std::ostringstream out;
    dumpTreeText(t, out);
    EXPECT_TRUE(contains(out.str(), "node 1 plane 2 (0 0 1 64) (already printed)\n"));
    EXPECT_TRUE(contains(out.str(), "node 9 (out of range)\n"));
    EXPECT_TRUE(contains(out.str(), "leaf 40 (out of range)\n"));
}

// ---- portals (version 2) ----

BspTree makeTreeWithPortals() {
    BspTree t = makeTree();
    t.portals = generatePortals(t);
    return t;
}

// The same file as version 1 wrote it: no PORT section.
std::string asVersion1(std::string bytes) {
    bytes.resize(payloadOf(bytes, "PORT") - 12);
    putLE(bytes, 4, 1, 4);
    fixChecksums(bytes);
    return bytes;
}

TEST(ObspPortals, RoundTripIsExact) {
    const BspTree tree = makeTreeWithPortals();
    // Leaf 0 is solid for every pose; leaf 1 is empty for all, leaf 2 for point, leaf 3
    // for point and large: three portals.
    ASSERT_EQ(tree.portals.size(), 3u);
    const std::string bytes = toBytes(tree);
    const ObspReadResult r = fromBytes(bytes);
    ASSERT_TRUE(r.tree) << r.error;
    expectSameTree(tree, *r.tree);
    expectSamePortals(tree, *r.tree);
    EXPECT_EQ(r.info.portals, 3u);
    EXPECT_EQ(toBytes(*r.tree), bytes);
}

TEST(ObspPortals, Version1FilesGetTheirPortalsGenerated) {
    const BspTree tree = makeTreeWithPortals();
    ObspReadResult r = fromBytes(asVersion1(toBytes(tree)));
    ASSERT_TRUE(r.tree) << r.error;
    EXPECT_EQ(r.info.version, 1u);
    expectSameTree(tree, *r.tree);
    expectSamePortals(tree, *r.tree);

    // A compiled world too; saving it again writes version 2 with the same portals.
    const MapReadResult map = readMapFile(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
    ASSERT_TRUE(map.ok());
    const BspTree compiled = compileWorld(worldFromMap(*map.map)).onion;
    ASSERT_GT(compiled.portals.size(), 100u);
    r = fromBytes(asVersion1(toBytes(compiled)));
    ASSERT_TRUE(r.tree) << r.error;
    expectSamePortals(compiled, *r.tree);
    EXPECT_EQ(toBytes(*r.tree), toBytes(compiled));
}

TEST(ObspPortals, Version1FilesThatAreNotTreesAreAClearError) {
    BspTree shared = makeTree(); // node 2 becomes the back child of nodes 0 and 1
    shared.nodes[0].back = 2;
    ObspReadResult r = fromBytes(asVersion1(toBytes(shared)));
    EXPECT_FALSE(r.tree);
    EXPECT_TRUE(contains(r.error, "version 1 file whose portals cannot be generated: node 2 has two parents"))
        << r.error;
    // As version 2 (portals stored, none generated) the same nodes still load.
    EXPECT_TRUE(fromBytes(toBytes(shared)).tree);

    BspTree deep; // a chain deeper than the compiler builds: x >= 0, x >= 1, ...
    deep.leafSolid.assign(size_t(kMaxTreeDepth) + 2, 0);
    deep.leaves.resize(deep.leafSolid.size());
    for (int i = 0; i <= kMaxTreeDepth; ++i) {
        addPlanePair(deep, Vec3(1, 0, 0), double(i));
        deep.nodes.push_back({2 * i, i < kMaxTreeDepth ? i + 1 : leafRef(i + 1), leafRef(i)});
    }
    deep.root = 0;
    r = fromBytes(asVersion1(toBytes(deep)));
    EXPECT_FALSE(r.tree);
    EXPECT_TRUE(contains(r.error, "deeper than 2048")) << r.error;
}

TEST(ObspPortals, ForgedBadPortalsAreRejected) {
    const BspTree tree = makeTreeWithPortals();
    const std::string good = toBytes(tree);
    const uint64_t nan = std::bit_cast<uint64_t>(std::numeric_limits<double>::quiet_NaN());
    // PORT payload: count u32, vertex total u64, then portal 0 at 12: plane, front, back,
    // poses, vertex count, vertices.
    const struct {
        size_t offset;
        uint64_t value;
        int bytes;
        const char* expected;
    } cases[] = {
        {12, 6, 4, "portal 0: portal plane out of range"},
        {16, 4, 4, "portal 0: portal leaf out of range"},
        {20, uint64_t(-1), 4, "portal 0: portal leaf out of range"},
        {20, uint32_t(tree.portals[0].front), 4, "portal 0: portal joins a leaf to itself"},
        {24, 0, 8, "portal 0: portal poses differ from the poses in which both leaves are empty"},
        {24, tree.portals[0].poses | 0b1000, 8, "portal 0: portal poses differ"},
        {32, 2, 4, "portal 0: portal has fewer than 3 vertices"},
        {32, 1000, 4, "portal 0: more vertices than the section's total"},
        {36, nan, 8, "portal 0: non-finite portal vertex"},
        {0, 1000, 4, "portal counts are larger than the section"},
        {4, uint64_t(1) << 40, 8, "portal counts are larger than the section"},
        {4, 0, 8, "more vertices than the section's total"},
    };
    for (const auto& c : cases) {
        std::string bytes = good;
        putLE(bytes, payloadOf(bytes, "PORT") + c.offset, c.value, c.bytes);
        fixChecksums(bytes);
        const ObspReadResult r = fromBytes(bytes);
        EXPECT_FALSE(r.tree) << c.expected;
        EXPECT_TRUE(contains(r.error, c.expected)) << r.error;
        EXPECT_TRUE(contains(r.error, " at byte ")) << r.error;
    }
    // Solidity that no longer matches a stored portal is caught too.
    std::string bytes = good;
    putLE(bytes, payloadOf(bytes, "SOLI") + 8, 0b001, 8); // leaf 1: solid for point
    fixChecksums(bytes);
    EXPECT_TRUE(contains(fromBytes(bytes).error, "portal poses differ")) << fromBytes(bytes).error;
}

TEST(ObspPortals, DamagedPortalSectionsAreErrors) {
    const std::string bytes = toBytes(makeTreeWithPortals());
    for (size_t length = payloadOf(bytes, "PORT") - 12; length < bytes.size(); ++length) {
        const ObspReadResult r = fromBytes(bytes.substr(0, length));
        EXPECT_FALSE(r.tree) << length;
        EXPECT_TRUE(contains(r.error, "obsp: ")) << length << ": " << r.error;
    }
    std::mt19937 rng(99);
    size_t accepted = 0;
    for (size_t at = payloadOf(bytes, "PORT") - 12; at < bytes.size(); ++at) {
        std::string flipped = bytes;
        flipped[at] = char(uint8_t(flipped[at]) ^ 0x01);
        EXPECT_FALSE(fromBytes(flipped).tree) << "byte " << at;
        std::string forged = bytes;
        forged[at] = char(rng() & 0xff);
        fixChecksums(forged);
        const ObspReadResult r = fromBytes(forged);
        if (!r.tree) continue;
        ++accepted; // e.g. a changed coordinate: valid, and must be writable again
        EXPECT_EQ(obspWriteProblem(*r.tree), "");
    }
    EXPECT_GT(accepted, 0u);
}

TEST(ObspPortals, UnwritablePortalsWriteNothing) {
    auto expectProblem = [](const BspTree& t, const char* expected) {
        EXPECT_TRUE(contains(obspWriteProblem(t), expected)) << obspWriteProblem(t);
        std::ostringstream out;
        writeObsp(t, out);
        EXPECT_TRUE(out.fail());
    };
    BspTree t = makeTreeWithPortals();
    t.portals[1].back = t.portals[1].front;
    expectProblem(t, "portal 1: portal joins a leaf to itself");
    t = makeTreeWithPortals();
    t.leafSolid[1] = 0b001; // solidity edited after the portals were generated
    expectProblem(t, "portal poses differ");
    t = makeTreeWithPortals();
    t.portals[2].vertexCount = 2;
    expectProblem(t, "portal 2: portal has fewer than 3 vertices");
    t = makeTreeWithPortals();
    t.portals[0].plane = -1;
    expectProblem(t, "portal 0: portal plane out of range");
}

TEST(ObspPortals, DumpListsPortals) {
    const BspTree t = makeTreeWithPortals();
    std::ostringstream out;
    dumpTreeText(t, out);
    const Portal& p = t.portals[0];
    const std::string line = "portals: 3\n  portal 0 plane " + std::to_string(p.plane) + " front " +
                             std::to_string(p.front) + " back " + std::to_string(p.back) + " open {";
    EXPECT_TRUE(contains(out.str(), line)) << out.str();
}

} // namespace
} // namespace shallot
