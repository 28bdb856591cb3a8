// The PVS stored in the .obsp (format version 4, the PVIS section; portal/tree_pvs.h,
// issue #39 part 4): it round-trips exactly, older files still read, a damaged section
// costs only the PVS (the tree loads and says why), forged sections are refused, and the
// stored sets never miss: random segments through the tree that meet no solid of the sight
// pose join leaves that see each other, in random rooms and on id_e1m7.
#include "compile/compiler.h"
#include "edit/brush_operations.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "io/obsp_format.h"
#include "portal/leaf_visibility.h"
#include "portal/reachability.h"
#include "query/point_visibility.h"
#include "query/trace.h"
#include "nav_helpers.h"
#include "random_world.h"
#include "same_tree.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <limits>
#include <sstream>

namespace shallot {
namespace {

using namespace test;

// A compiled world, its PVS and the file with both.
struct Stored {
    World world;
    BspTree tree;
    TreePvs pvs;
    std::string bytes;
};

Stored compiledWithPvs(World w, bool fullFlow = true) {
    Stored s;
    s.world = std::move(w);
    CompileOptions options;
    options.threads = 2;
    CompileResult r = compileWorld(s.world, options);
    EXPECT_EQ(r.error, "");
    s.tree = std::move(r.onion);
    TreePvsSettings settings;
    settings.fullFlow = fullFlow;
    settings.threads = 2;
    TreePvsResult computed = computeTreePvs(s.tree, s.world.brushes, settings);
    EXPECT_EQ(computed.error, "");
    if (computed.pvs) s.pvs = std::move(*computed.pvs);
    std::ostringstream out;
    writeObsp(s.tree, out, &s.world.brushes, &s.pvs);
    EXPECT_TRUE(out.good());
    s.bytes = out.str();
    return s;
}

const Stored& room() {
    static const Stored s = [] {
        Rng rng(3941);
        std::vector<Brush> inside = randomRoomBrushes(rng);
        inside.resize(8);
        return compiledWithPvs(navRoom(std::move(inside)));
    }();
    return s;
}

ObspReadResult fromBytes(const std::string& bytes) {
    std::istringstream in(bytes);
    return readObsp(in);
}

void putLE(std::string& b, size_t at, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) b[at + size_t(i)] = char((v >> (8 * i)) & 0xff);
}

uint64_t getLE(const std::string& b, size_t at, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= uint64_t(uint8_t(b[at + size_t(i)])) << (8 * i);
    return v;
}

// Where the PVIS section starts (its tag) in a file that ends with it.
size_t pvsSectionAt(const std::string& b) {
    size_t pos = 96;
    while (pos + 12 <= b.size()) {
        if (std::memcmp(b.data() + pos, "PVIS", 4) == 0) return pos;
        pos += 16 + size_t(getLE(b, pos + 4, 8));
    }
    ADD_FAILURE() << "no PVIS section";
    return 0;
}

// Recomputes the header's and every section's checksum, as a hostile writer would.
void fixChecksums(std::string& b) {
    putLE(b, 92, obspCrc32(b.data(), 92), 4);
    for (size_t pos = 96; b.size() - pos >= 12;) {
        const uint64_t length = getLE(b, pos + 4, 8);
        if (length > b.size() - pos - 12 || b.size() - pos - 12 - length < 4) return;
        putLE(b, pos + 12 + size_t(length), obspCrc32(b.data() + pos, 12 + size_t(length)), 4);
        pos += 16 + size_t(length);
    }
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The tree read whole, without a PVS, and an error naming the section.
void expectOnlyThePvsLost(const ObspReadResult& r, const BspTree& tree, const std::string& why) {
    ASSERT_TRUE(r.tree) << r.error;
    EXPECT_FALSE(r.pvs);
    EXPECT_TRUE(contains(r.pvsError, "section 'visibility'")) << r.pvsError;
    EXPECT_TRUE(contains(r.pvsError, why)) << r.pvsError;
    expectSameTree(*r.tree, tree);
    EXPECT_TRUE(r.brushes);
}

} // namespace

TEST(ObspVisibility, RoundTripIsExact) {
    const Stored& s = room();
    EXPECT_EQ(getLE(s.bytes, 4, 4), kObspVersion);
    EXPECT_EQ(getLE(s.bytes, 8, 4), kObspFlagBrushes | kObspFlagVisibility);
    const ObspReadResult r = fromBytes(s.bytes);
    ASSERT_TRUE(r.tree) << r.error;
    EXPECT_EQ(r.pvsError, "");
    ASSERT_TRUE(r.pvs);
    EXPECT_TRUE(*r.pvs == s.pvs);
    EXPECT_EQ(r.pvs->pose, 0);
    EXPECT_TRUE(r.pvs->figures.fullFlow);
    EXPECT_FALSE(r.pvs->figures.leaks);
    EXPECT_GT(r.pvs->figures.averageVisible, 0.0);
    expectSameTree(*r.tree, s.tree);
    std::ostringstream again;
    writeObsp(*r.tree, again, &*r.brushes, &*r.pvs);
    EXPECT_EQ(again.str(), s.bytes);
    // Compact: the section is a small part of the file (rows of bits, zero runs coded).
    const size_t section = s.bytes.size() - pvsSectionAt(s.bytes);
    std::cout << s.tree.leafCount() << " leaves in " << s.pvs.clusterCount() << " clusters: PVIS " << section
              << " bytes of " << s.bytes.size() << "\n";
    EXPECT_LT(section, s.bytes.size() / 4);
}

TEST(ObspVisibility, FilesWithoutItAndOlderVersionsStillRead) {
    const Stored& s = room();
    std::ostringstream plain;
    writeObsp(s.tree, plain, &s.world.brushes);
    std::string bytes = plain.str();
    // The same sections but the PVS.
    EXPECT_EQ(bytes.substr(96), s.bytes.substr(96, pvsSectionAt(s.bytes) - 96));
    ObspReadResult r = fromBytes(bytes);
    ASSERT_TRUE(r.tree) << r.error;
    EXPECT_FALSE(r.pvs);
    EXPECT_EQ(r.pvsError, "");
    // Without the PVS the file is the file of version 3 but for its version number.
    putLE(bytes, 4, 3, 4);
    fixChecksums(bytes);
    r = fromBytes(bytes);
    ASSERT_TRUE(r.tree) << r.error;
    EXPECT_EQ(r.info.version, 3u);
    EXPECT_FALSE(r.pvs);
    expectSameTree(*r.tree, s.tree);
    // Version 3 knows no PVS flag.
    std::string v3 = s.bytes;
    putLE(v3, 4, 3, 4);
    fixChecksums(v3);
    EXPECT_TRUE(contains(fromBytes(v3).error, "unknown flags 3 at byte 8")) << fromBytes(v3).error;
}

// Cut anywhere in the section (its frame, its payload, its checksum), or any byte flipped
// there: the tree, the brushes and everything before load as they were; the PVS does not.
TEST(ObspVisibility, ADamagedSectionLosesOnlyThePvs) {
    const Stored& s = room();
    const size_t at = pvsSectionAt(s.bytes);
    for (size_t length = at; length < s.bytes.size(); length += 1 + (length - at) / 16) {
        SCOPED_TRACE(length);
        expectOnlyThePvsLost(fromBytes(s.bytes.substr(0, length)), s.tree, "");
        if (::testing::Test::HasFailure()) return;
    }
    expectOnlyThePvsLost(fromBytes(s.bytes.substr(0, at)), s.tree, "missing section 'visibility'");
    for (size_t byte = at; byte < s.bytes.size(); byte += 1 + (byte - at) / 8) {
        SCOPED_TRACE(byte);
        std::string corrupt = s.bytes;
        corrupt[byte] = char(uint8_t(corrupt[byte]) ^ 0x10);
        const ObspReadResult r = fromBytes(corrupt);
        expectOnlyThePvsLost(r, s.tree, "");
        if (::testing::Test::HasFailure()) return;
    }
    std::string flipped = s.bytes;
    flipped[at + 20] ^= 1;
    expectOnlyThePvsLost(fromBytes(flipped), s.tree, "checksum mismatch in section 'visibility'");
    // A byte after it is an error of the file, as after any last section.
    EXPECT_TRUE(contains(fromBytes(s.bytes + '\0').error, "trailing bytes")) << fromBytes(s.bytes + '\0').error;
}

// Sections a hostile writer made (checksums recomputed): each is refused with what is wrong,
// before anything out of proportion to the file is allocated.
TEST(ObspVisibility, ForgedSectionsAreRefused) {
    const Stored& s = room();
    const size_t payload = pvsSectionAt(s.bytes) + 12;
    const size_t counts = payload + 4 + 1 + 8 + 4 + 8; // cluster count, then the entry total
    const size_t lists = counts + 4 + 8;               // per leaf: count, clusters
    const uint64_t nan = std::bit_cast<uint64_t>(std::numeric_limits<double>::quiet_NaN());
    // The first row: after every leaf's list.
    size_t firstRow = lists;
    for (size_t leaf = 0; leaf < s.tree.leafCount(); ++leaf) firstRow += 4 + 4 * getLE(s.bytes, firstRow, 4);
    struct Case {
        size_t at;
        uint64_t value;
        int bytes;
        const char* expected;
    };
    const size_t firstLeafCount = getLE(s.bytes, lists, 4);
    ASSERT_GT(firstLeafCount, 0u);
    const Case cases[] = {
        {payload, 3, 4, "PVS pose out of range"},
        {payload, 1, 4, "PVS pose is not a point"},
        {payload + 4, 4, 1, "unknown PVS flags 4"},
        {payload + 5, nan, 8, "PVS figures are not finite non-negative numbers"},
        {counts, 0xffffffffu, 4, "PVS counts are larger than the section"},
        {counts + 4, uint64_t(1) << 40, 8, "PVS counts are larger than the section"},
        {counts + 4, 0, 8, "leaf 0: more PVS clusters than the section's total"},
        {lists + 4, 0xfffffffu, 4, "leaf 0: PVS cluster out of range"},
        {firstRow, 0, 4, "cluster 0: PVS row shorter than its clusters"},
        {firstRow, 0xfffffff0u, 4, "unexpected end of section 'visibility'"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.expected);
        std::string forged = s.bytes;
        putLE(forged, c.at, c.value, c.bytes);
        fixChecksums(forged);
        expectOnlyThePvsLost(fromBytes(forged), s.tree, c.expected);
    }
    // Rows: a run of zeros of length 0, one past the row's end, a bit past the last cluster.
    const size_t rowBytes = (s.pvs.clusterCount() + 7) / 8;
    const auto withFirstRow = [&](const std::string& row) {
        std::string forged = s.bytes.substr(0, firstRow);
        std::string length(4, '\0');
        putLE(length, 0, row.size(), 4);
        const size_t rest = firstRow + 4 + getLE(s.bytes, firstRow, 4);
        forged += length + row + s.bytes.substr(rest);
        putLE(forged, pvsSectionAt(forged) + 4, forged.size() - pvsSectionAt(forged) - 16, 8);
        fixChecksums(forged);
        return forged;
    };
    const std::string allZero = rowBytes > 255 ? std::string() : std::string{'\0', char(rowBytes)};
    ASSERT_FALSE(allZero.empty());
    EXPECT_TRUE(fromBytes(withFirstRow(allZero)).pvs); // an empty row reads
    expectOnlyThePvsLost(fromBytes(withFirstRow({'\0', '\0'})), s.tree, "bad run of zeros in the PVS row");
    expectOnlyThePvsLost(fromBytes(withFirstRow({'\0', char(rowBytes + 1)})), s.tree, "bad run of zeros in the PVS row");
    if (s.pvs.clusterCount() % 8 != 0) { // padding bits to set
        std::string past(rowBytes, '\x01');
        past.back() = char(0x80);
        expectOnlyThePvsLost(fromBytes(withFirstRow(past)), s.tree, "cluster 0: PVS bit past the last cluster");
    }
    expectOnlyThePvsLost(fromBytes(withFirstRow(std::string(rowBytes + 1, '\x01'))), s.tree,
                         "PVS row longer than its clusters");
}

// Random bytes in the section, checksums recomputed: the PVS is refused or fits the tree
// (visible() answers for every pair of leaves), never a crash; the tree always loads.
TEST(ObspVisibility, RandomCorruptionWithForgedChecksumsIsAnErrorOrAUsablePvs) {
    const Stored& s = room();
    const size_t at = pvsSectionAt(s.bytes);
    Rng rng(77);
    size_t accepted = 0;
    for (int trial = 0; trial < 600; ++trial) {
        std::string corrupt = s.bytes;
        for (int k = 0; k < 1 + int(rng() % 3); ++k) corrupt[at + 12 + rng() % (s.bytes.size() - at - 16)] = char(rng());
        fixChecksums(corrupt);
        const ObspReadResult r = fromBytes(corrupt);
        ASSERT_TRUE(r.tree) << r.error;
        if (!r.pvs) {
            EXPECT_TRUE(contains(r.pvsError, "section 'visibility'")) << r.pvsError;
            continue;
        }
        ++accepted;
        ASSERT_EQ(treePvsProblem(*r.pvs, *r.tree), "");
        for (size_t a = 0; a < r.tree->leafCount(); a += 7)
            for (size_t b = 0; b < r.tree->leafCount(); b += 5) (void)r.pvs->visible(int32_t(a), int32_t(b));
    }
    EXPECT_GT(accepted, 0u); // a changed figure or bit: still a PVS
}

TEST(ObspVisibility, APvsOfAnotherTreeIsNotWritten) {
    const Stored& s = room();
    EXPECT_EQ(obspWriteProblem(s.tree, &s.pvs), "");
    TreePvs shorter = s.pvs;
    shorter.firstCluster.pop_back();
    shorter.clusters.resize(shorter.firstCluster.back());
    EXPECT_EQ(obspWriteProblem(s.tree, &shorter), "PVS leaf count differs from the tree's");
    TreePvs wrongPose = s.pvs;
    wrongPose.pose = 2;
    EXPECT_EQ(obspWriteProblem(s.tree, &wrongPose), "PVS pose is not a point");
    std::ostringstream out;
    writeObsp(s.tree, out, nullptr, &wrongPose);
    EXPECT_TRUE(out.fail());
    TreePvs badIndex = s.pvs;
    badIndex.clusters[0] = int32_t(badIndex.clusterCount());
    EXPECT_EQ(obspWriteProblem(s.tree, &badIndex), "PVS cluster index out of range");
}

namespace {

// Random pairs of points from `point`: whenever the segment between them meets no solid of
// the sight pose (an exact trace through the tree), the stored PVS (read back from the
// file) has each end's leaf in the other's set. Returns the number of clear segments.
template <class PointSource>
int expectNoMiss(const BspTree& tree, const TreePvs& pvs, PointSource&& point, int pairs) {
    int clear = 0, missed = 0;
    for (int i = 0; i < pairs && missed < 5; ++i) {
        const Vec3 a = point(), b = point();
        const PointVisibility v = pointVisibility(tree, pvs.pose, &pvs, a, b);
        if (!v.clear || !v.pvsKnown) continue;
        ++clear;
        EXPECT_EQ(v.pvs, pvs.visible(v.toLeaf, v.fromLeaf));
        if (v.pvs) continue;
        ++missed;
        ADD_FAILURE() << "leaf " << v.toLeaf << " at " << b.transpose() << " is seen from leaf " << v.fromLeaf << " at "
                      << a.transpose() << " but not in its stored PVS";
    }
    return clear;
}

// Random points of random portals open for `pose`, moved 0.01 to either side: segments
// between them pass through the openings, where visibility is decided.
auto pointsNearPortals(const BspTree& tree, int pose, Rng& rng) {
    std::vector<size_t> open;
    for (size_t i = 0; i < tree.portals.size(); ++i)
        if ((tree.portals[i].poses >> pose) & 1u) open.push_back(i);
    return [&tree, &rng, open] {
        const size_t i = open[rng() % open.size()];
        const std::span<const Vec3> v = tree.portals.vertices(i);
        const Vec3 n = tree.planes[size_t(tree.portals[i].plane)].normal;
        return Vec3(randomPointIn(rng, Polygon{{v.begin(), v.end()}}) + (rng() % 2 ? 0.01 : -0.01) * n);
    };
}

auto pointsIn(Rng& rng, const Aabb& box) {
    return [&rng, box] {
        return Vec3(uniform(rng, box.mins.x(), box.maxs.x()), uniform(rng, box.mins.y(), box.maxs.y()),
                    uniform(rng, box.mins.z(), box.maxs.z()));
    };
}

TreePvs readBack(const Stored& s) {
    const ObspReadResult r = fromBytes(s.bytes);
    EXPECT_TRUE(r.pvs) << r.error << r.pvsError;
    return r.pvs ? *r.pvs : TreePvs{};
}

} // namespace

// Random rooms (Quake's three poses, the PVS of the point pose), full and base flow.
TEST(StoredPvs, NeverAMissInRandomRooms) {
    Rng rng(3942);
    int clear = 0;
    for (int room = 0; room < 4; ++room) {
        SCOPED_TRACE(room);
        std::vector<Brush> inside = randomRoomBrushes(rng);
        inside.resize(10);
        const Stored s = compiledWithPvs(navRoom(std::move(inside)), room % 2 == 0);
        const TreePvs pvs = readBack(s);
        const Aabb box{Vec3(0, 0, 0), Vec3(1024, 512, 256)};
        clear += expectNoMiss(s.tree, pvs, pointsIn(rng, box), 4000);
        clear += expectNoMiss(s.tree, pvs, pointsNearPortals(s.tree, pvs.pose, rng), 4000);
        if (::testing::Test::HasFailure()) return;
    }
    EXPECT_GT(clear, 8000);
}

// id_e1m7 with Quake's three poses (the full flow, about a second): random points of the
// level and of the onion's portals.
TEST(StoredPvs, NeverAMissOnIdE1m7) {
    const MapReadResult read = readMapFile(SHALLOT_SHARED_MAPS "/id_e1m7.map");
    if (!read.ok()) GTEST_SKIP() << "no id_e1m7";
    const World w = worldFromMap(*read.map);
    Aabb level;
    for (const Brush& b : w.brushes) level.add(bounds(b));
    const Stored s = compiledWithPvs(w);
    const TreePvs pvs = readBack(s);
    std::cout << "id_e1m7: " << s.tree.leafCount() << " leaves in " << pvs.clusterCount() << " clusters, average "
              << pvs.figures.averageVisible << " visible (largest " << pvs.figures.largestVisible << "), "
              << pvs.figures.ms << " ms; PVIS " << s.bytes.size() - pvsSectionAt(s.bytes) << " of " << s.bytes.size()
              << " bytes\n";
    Rng rng(39);
    const int clear = expectNoMiss(s.tree, pvs, pointsIn(rng, level), 20000) +
                      expectNoMiss(s.tree, pvs, pointsNearPortals(s.tree, pvs.pose, rng), 20000);
    EXPECT_GT(clear, 2000);
}

// The leaky box: no inside, said so; every empty leaf sees every other.
TEST(StoredPvs, ALeakingLevelSeesEverything) {
    const MapReadResult read = readMapFile(SHALLOT_SAMPLE_MAPS "/leaky_box.map");
    ASSERT_TRUE(read.ok());
    const Stored s = compiledWithPvs(worldFromMap(*read.map));
    EXPECT_TRUE(s.pvs.figures.leaks);
    const TreePvs pvs = readBack(s);
    EXPECT_TRUE(pvs.figures.leaks);
    std::vector<int32_t> empty;
    for (size_t leaf = 0; leaf < s.tree.leafCount(); ++leaf)
        if (!((s.tree.leafSolid[leaf] >> pvs.pose) & 1u)) empty.push_back(int32_t(leaf));
    ASSERT_GT(empty.size(), 10u);
    for (const int32_t a : empty)
        for (const int32_t b : empty) ASSERT_TRUE(pvs.visible(a, b)) << a << " " << b;
}

TEST(StoredPvs, NoSightPoseIsAClearError) {
    World w = navRoom({});
    w.poses.erase(w.poses.begin()); // player and large only
    const CompileResult r = compileWorld(w);
    ASSERT_EQ(r.error, "");
    const TreePvsResult computed = computeTreePvs(r.onion, w.brushes, {});
    EXPECT_FALSE(computed.pvs);
    EXPECT_EQ(computed.error, "no pose is a point at the reference point (what the eye sees)");
}

// The batch answers one by one's, for any number of threads.
TEST(StoredPvs, BatchesAnswerAsOneByOne) {
    const Stored& s = room();
    Rng rng(5);
    std::vector<Vec3> from, to;
    for (int i = 0; i < 3000; ++i) {
        from.push_back(pointsIn(rng, {Vec3(-100, -100, -100), Vec3(1100, 600, 300)})());
        to.push_back(i % 10 == 0 ? from.back() : pointsIn(rng, {Vec3(-100, -100, -100), Vec3(1100, 600, 300)})());
    }
    int clear = 0, seen = 0;
    for (const TreePvs* pvs : {&s.pvs, static_cast<const TreePvs*>(nullptr)}) {
        const std::vector<PointVisibility> batch = pointVisibilityBatch(s.tree, 0, pvs, from, to, 2);
        for (size_t i = 0; i < from.size(); ++i) {
            const PointVisibility one = pointVisibility(s.tree, 0, pvs, from[i], to[i]);
            ASSERT_EQ(batch[i].pvs, one.pvs) << i;
            ASSERT_EQ(batch[i].pvsKnown, one.pvsKnown) << i;
            ASSERT_EQ(batch[i].clear, one.clear) << i;
            ASSERT_EQ(batch[i].fromLeaf, one.fromLeaf) << i;
            ASSERT_EQ(batch[i].toLeaf, one.toLeaf) << i;
            if (!pvs) {
                ASSERT_TRUE(one.pvs && !one.pvsKnown) << i;
            }
            clear += one.clear;
            seen += one.pvsKnown && !one.pvs;
        }
    }
    EXPECT_GT(clear, 100);
    EXPECT_GT(seen, 10); // the PVS culls some pairs
}

} // namespace shallot
