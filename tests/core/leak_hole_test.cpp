// Where a leak leaves the level (portal/leak_hole.h): the opening found is the hole in the
// wall the leak path goes through, closing its portals seals the level, and doorways
// between rooms with entities in them are not taken for it.
#include "compile/compiler.h"
#include "portal/leak_hole.h"
#include "portal/reachability.h"
#include "test_maps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace shallot {
namespace {

using test::Rng;
using test::uniform;

// A wall slab [lo, hi] with a rectangular opening [openLo, openHi] through it along `axis`
// (the opening's extent on `axis` is ignored): up to four boxes around the opening.
void addWallWithOpening(World& w, const Vec3& lo, const Vec3& hi, int axis, const Vec3& openLo, const Vec3& openHi) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    auto box = [&](double u0, double u1, double v0, double v1) {
        if (u1 <= u0 || v1 <= v0) return;
        Vec3 a = lo, b = hi;
        a[u] = u0, b[u] = u1, a[v] = v0, b[v] = v1;
        w.brushes.push_back(Brush::box(a, b));
    };
    box(lo[u], openLo[u], lo[v], hi[v]);
    box(openHi[u], hi[u], lo[v], hi[v]);
    box(openLo[u], openHi[u], lo[v], openLo[v]);
    box(openLo[u], openHi[u], openHi[v], hi[v]);
}

// The walls of a room with the given inside, `thickness` thick (corners overlap), but for
// those in `without` (axis * 2 + side, side 1 the high one).
void addRoom(World& w, const Vec3& lo, const Vec3& hi, double thickness, std::initializer_list<int> without = {}) {
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            if (std::find(without.begin(), without.end(), axis * 2 + side) != without.end()) continue;
            Vec3 a = lo - Vec3::Constant(thickness), b = hi + Vec3::Constant(thickness);
            if (side == 0) b[axis] = lo[axis];
            else a[axis] = hi[axis];
            w.brushes.push_back(Brush::box(a, b));
        }
}

// How far the cut may lie from an opening: it runs along the cells' faces, which the planes
// of every pose's expanded walls place up to the largest box's extent away from it.
Vec3 largestExtent(const BspTree& t) {
    Vec3 e = Vec3::Zero();
    for (const Pose& p : t.poses) e = e.cwiseMax(p.maxs).cwiseMax(-p.mins);
    return e;
}

double areaOf(const BspTree& t, const std::vector<uint32_t>& portals) {
    double area = 0;
    for (uint32_t p : portals) area += polygonArea(t.portals.vertices(p));
    return area;
}

// Whether the starts still reach the world box with `closed` portals shut for `pose`.
bool leaksWithout(BspTree t, int pose, const std::vector<uint32_t>& closed, const Vec3& start) {
    for (uint32_t p : closed) t.portals[p].poses &= ~(uint64_t(1) << pose);
    return flood(t, pose, {start}).leak;
}

// maps/leaky_box.map: a room 0..512 (x, y), 0..256 (z) with a 128 x 128 hole in its east
// wall (x 512..528, y 192..320, z 0..128). For every pose the hole found lies at the
// opening of its expanded wall (up to the cells' faces around it), at most twice its area.
TEST(LeakHole, LeakyBoxHoleIsTheOpeningInItsEastWall) {
    const CompileResult r = compileWorld(test::loadMap(SHALLOT_SAMPLE_MAPS "/leaky_box.map"));
    ASSERT_TRUE(r.error.empty()) << r.error;
    const BspTree& t = r.onion;
    const Vec3 start(128, 128, 24);
    for (int pose = 0; pose < 3; ++pose) {
        const Pose& box = t.poses[size_t(pose)];
        SCOPED_TRACE(box.name);
        const Flood f = flood(t, pose, {start});
        ASSERT_TRUE(f.leak);
        ASSERT_EQ(f.leakPortals.size() + 2, f.leakPath.size());
        const std::optional<LeakHole> hole = leakHole(t, pose, std::vector<Vec3>{start}, f.leakPortals);
        ASSERT_TRUE(hole);
        // Within the expanded wall's opening: the wall grown by the box, the hole shrunk by it.
        const Aabb opening{Vec3(512 - box.maxs.x(), 192 - box.mins.y(), 0 - box.mins.z()),
                           Vec3(528 - box.mins.x(), 320 - box.maxs.y(), 128 - box.maxs.z())};
        const Aabb near{opening.mins - largestExtent(t), opening.maxs + largestExtent(t)};
        EXPECT_TRUE(near.contains(hole->box.mins) && near.contains(hole->box.maxs))
            << hole->box.mins.transpose() << " .. " << hole->box.maxs.transpose();
        const double across = (opening.maxs.y() - opening.mins.y()) * (opening.maxs.z() - opening.mins.z());
        EXPECT_GE(areaOf(t, hole->portals), across - 1e-6);
        EXPECT_LE(areaOf(t, hole->portals), 2 * across);
        EXPECT_FALSE(hole->box.contains(start));
        EXPECT_FALSE(leaksWithout(t, pose, hole->portals, start));
    }
}

// Two rooms joined by a narrow doorway, the second with a wide hole out. With a light in
// the second room the hole is found; with the start alone as the inside, the doorway is
// the smaller cut (why the level's entities are given).
TEST(LeakHole, ADoorwayBetweenRoomsWithEntitiesIsNotTheHole) {
    World w;
    w.poses.push_back({"point", Vec3::Zero(), Vec3::Zero(), 0xffffffffu});
    addRoom(w, Vec3(0, 0, 0), Vec3(256, 256, 128), 16, {1}); // room A; its east wall has the doorway
    addWallWithOpening(w, Vec3(256, -16, -16), Vec3(272, 272, 144), 0, Vec3(0, 112, 0), Vec3(0, 144, 64));
    addRoom(w, Vec3(272, 0, 0), Vec3(528, 256, 128), 16, {0, 1}); // room B; its east wall has the hole
    addWallWithOpening(w, Vec3(528, -16, -16), Vec3(544, 272, 144), 0, Vec3(0, 64, 0), Vec3(0, 192, 96));
    const CompileResult r = compileWorld(w);
    ASSERT_TRUE(r.error.empty()) << r.error;
    const BspTree& t = r.onion;
    const Vec3 start(64, 128, 24), light(400, 128, 64);
    const Flood f = flood(t, 0, {start});
    ASSERT_TRUE(f.leak);
    const std::optional<LeakHole> hole = leakHole(t, 0, std::vector<Vec3>{start, light}, f.leakPortals);
    ASSERT_TRUE(hole);
    EXPECT_GE(hole->box.mins.x(), 528 - 1e-6);
    EXPECT_LE(hole->box.maxs.x(), 544 + 1e-6);
    EXPECT_NEAR(areaOf(t, hole->portals), 128.0 * 96.0, 1e-6); // the point pose's cells fit the wall
    EXPECT_FALSE(leaksWithout(t, 0, hole->portals, start));
    const std::optional<LeakHole> doorway = leakHole(t, 0, std::vector<Vec3>{start}, f.leakPortals);
    ASSERT_TRUE(doorway);
    EXPECT_GE(doorway->box.mins.x(), 256 - 1e-6);
    EXPECT_LE(doorway->box.maxs.x(), 272 + 1e-6);
    EXPECT_NEAR(areaOf(t, doorway->portals), 32.0 * 64.0, 1e-6);
}

// Random rooms with pillars and one hole of random size in a random wall (or the roof):
// for every pose that leaks, the hole found lies at that opening (up to the cells' faces
// around it), is at most twice its area, holds not the start, and closing it seals the room.
TEST(LeakHole, RandomRoomsWithOneHole) {
    Rng rng(8);
    int checked = 0;
    for (int level = 0; level < 12; ++level) {
        World w;
        w.poses = quakePoses();
        const Vec3 size(std::round(uniform(rng, 256, 512)), std::round(uniform(rng, 256, 512)), std::round(uniform(rng, 160, 320)));
        // The hole: in wall `face` (0..3 the sides, 4 the roof), of random size.
        const int face = int(rng() % 5);
        const int axis = face < 2 ? 0 : face < 4 ? 1 : 2;
        const bool high = face == 1 || face == 3 || face == 4;
        addRoom(w, Vec3::Zero(), size, 16, {axis * 2 + (high ? 1 : 0)});
        Vec3 wallLo = Vec3::Constant(-16), wallHi = size + Vec3::Constant(16);
        if (high) wallLo[axis] = size[axis];
        else wallHi[axis] = 0;
        Vec3 openLo = Vec3::Zero(), openHi = Vec3::Zero();
        for (int k = 0; k < 3; ++k) {
            if (k == axis) continue;
            const double width = std::round(uniform(rng, 48, 160));
            openLo[k] = std::round(uniform(rng, 16, size[k] - width - 16));
            openHi[k] = openLo[k] + width;
        }
        addWallWithOpening(w, wallLo, wallHi, axis, openLo, openHi);
        const Vec3 start(std::round(size.x() / 2), std::round(size.y() / 2), 24);
        for (int i = 0; i < 4; ++i) { // pillars from floor to roof, away from the start
            Vec3 lo(std::round(uniform(rng, 16, size.x() - 48)), std::round(uniform(rng, 16, size.y() - 48)), 0);
            const Vec3 hi(lo.x() + 32, lo.y() + 32, size.z());
            if ((start.head<2>() - 0.5 * (lo + hi).head<2>()).norm() < 96) continue;
            w.brushes.push_back(Brush::box(lo, hi));
        }
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty()) << r.error;
        const BspTree& t = r.onion;
        for (int pose = 0; pose < 3; ++pose) {
            SCOPED_TRACE("level " + std::to_string(level) + " pose " + t.poses[size_t(pose)].name);
            const Flood f = flood(t, pose, {start});
            if (!f.leak) continue; // the opening is too small for the box
            const std::optional<LeakHole> hole = leakHole(t, pose, std::vector<Vec3>{start}, f.leakPortals);
            ASSERT_TRUE(hole);
            const Pose& box = t.poses[size_t(pose)];
            Aabb opening{openLo, openHi};
            opening.mins[axis] = wallLo[axis] - box.maxs[axis];
            opening.maxs[axis] = wallHi[axis] - box.mins[axis];
            const Aabb near{opening.mins - largestExtent(t), opening.maxs + largestExtent(t)};
            EXPECT_TRUE(near.contains(hole->box.mins) && near.contains(hole->box.maxs))
                << hole->box.mins.transpose() << " .. " << hole->box.maxs.transpose();
            Vec3 across = opening.maxs - opening.mins;
            across[axis] = 1;
            EXPECT_LE(areaOf(t, hole->portals), 2 * across.prod());
            EXPECT_FALSE(hole->box.contains(start));
            EXPECT_FALSE(leaksWithout(t, pose, hole->portals, start));
            ++checked;
        }
    }
    EXPECT_GT(checked, 20);
}

// id_e1m1 with a brush taken out (the floor of the start's room below it, a wall far
// along the level): the hole found for the player, with every point entity as the inside,
// is where the brush was, not at the start, and closing it seals the level again.
TEST(LeakHole, IdE1m1WithABrushTakenOut) {
    const std::filesystem::path path = SHALLOT_SHARED_MAPS "/id_e1m1.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "no shared maps";
    const MapReadResult map = readMapFile(path.string());
    ASSERT_TRUE(map.ok());
    const World world = worldFromMap(*map.map);
    std::vector<Vec3> inside;
    Vec3 start = Vec3::Zero();
    for (const PointEntity& e : pointEntities(*map.map)) {
        inside.push_back(e.origin);
        if (e.classname == "info_player_start") start = e.origin;
    }
    for (const size_t brush : {size_t(5), size_t(500)}) {
        SCOPED_TRACE("brush " + std::to_string(brush));
        World open = world;
        const BrushGeometryResult removed = buildBrushGeometry(open.brushes[brush], defaultWorldBounds());
        ASSERT_TRUE(removed.geometry);
        open.brushes.erase(open.brushes.begin() + std::ptrdiff_t(brush));
        const CompileResult r = compileWorld(open);
        ASSERT_TRUE(r.error.empty()) << r.error;
        const BspTree& t = r.onion;
        const int player = t.poseIndex("player");
        const Flood f = flood(t, player, {start});
        ASSERT_TRUE(f.leak);
        const std::optional<LeakHole> hole = leakHole(t, player, inside, f.leakPortals);
        ASSERT_TRUE(hole);
        const Aabb& gone = removed.geometry->bounds;
        const Aabb near{gone.mins - largestExtent(t), gone.maxs + largestExtent(t)};
        EXPECT_TRUE(near.contains(hole->box.mins) && near.contains(hole->box.maxs))
            << hole->box.mins.transpose() << " .. " << hole->box.maxs.transpose();
        EXPECT_FALSE(hole->box.contains(start));
        EXPECT_FALSE(leaksWithout(t, player, hole->portals, start));
    }
}

} // namespace
} // namespace shallot
