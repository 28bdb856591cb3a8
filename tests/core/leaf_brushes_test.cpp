// Brush culling (portal/leaf_brushes.h) against brute force: a point on a brush face that
// the eye sees (inside the view, joined to the eye by a segment through no solid of the
// point pose) belongs to a brush listed for a leaf seen from the eye. On a real level most
// brushes must be left out.
#include "compile/compiler.h"
#include "portal/leaf_brushes.h"
#include "portal/leaf_visibility.h"
#include "portal/reachability.h"
#include "query/trace.h"
#include "random_world.h"
#include "test_camera.h"
#include "test_maps.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <iostream>

using namespace shallot;
using namespace shallot::test;

namespace {

// How far in front of a face its sample points are taken: off the face, so the segment
// from the eye ends in the empty space the face bounds, not on the solid's surface.
constexpr double kInFrontOfFace = 0.01;

struct Level {
    World world;
    CompileResult compiled;
    std::vector<std::optional<BrushGeometry>> geometry;
    std::vector<Aabb> boxes;
};

Level compiledLevel(World world) {
    Level l{std::move(world), {}, {}, {}};
    l.compiled = compileWorld(l.world);
    for (const Brush& b : l.world.brushes) {
        l.geometry.push_back(buildBrushGeometry(b, l.world.bounds).geometry);
        l.boxes.push_back(l.geometry.back() ? l.geometry.back()->bounds : Aabb{});
    }
    return l;
}

// A random point of a convex polygon (a random mix of its corners).
Vec3 pointOn(Rng& rng, const Polygon& p) {
    Vec3 sum = Vec3::Zero();
    double total = 0.0;
    for (const Vec3& v : p.vertices) {
        const double w = uniform(rng, 0.0, 1.0);
        sum += w * v;
        total += w;
    }
    return sum / total;
}

struct Tally {
    size_t facePointsSeen = 0;
    double brushesListedFraction = 0.0;
    int views = 0;
};

template <class EyeSource>
void expectEverySeenFaceListed(Rng& rng, const Level& level, const EyeSource& randomEye, Tally& tally) {
    const BspTree& tree = level.compiled.onion;
    const LeafVisibility visibility(std::shared_ptr<const BspTree>(&tree, [](const BspTree*) {}));
    const LeafBrushes near(tree, level.boxes);
    ASSERT_EQ(near.brushCount(), level.world.brushes.size());
    const int pose = sightPose(tree);
    for (int view = 0; view < 40; ++view) {
        const Camera c = camera(randomEye(), randomUnit(rng));
        const std::vector<bool> seenLeaves = visibility.seenFrom(c.eye, c.clip);
        ASSERT_FALSE(seenLeaves.empty()) << "eyes are in empty space";
        const std::vector<bool> listed = near.seenBrushes(seenLeaves);
        ASSERT_EQ(listed.size(), level.world.brushes.size());
        tally.brushesListedFraction += double(std::count(listed.begin(), listed.end(), true)) / double(listed.size());
        ++tally.views;
        for (size_t brush = 0; brush < level.geometry.size(); ++brush) {
            if (!level.geometry[brush]) continue;
            for (const ConvexFace& face : level.geometry[brush]->hull.faces)
                for (int sample = 0; sample < 8; ++sample) {
                    const Vec3 p = pointOn(rng, face.polygon) + kInFrontOfFace * face.plane.normal;
                    if (!inView(c, p)) continue;
                    const TraceResult r = traceSegment(tree, pose, c.eye, p);
                    if (r.hit || r.startSolid) continue;
                    ++tally.facePointsSeen;
                    EXPECT_TRUE(listed[brush]) << "brush " << brush << " seen at " << p.transpose() << " from " << c.eye.transpose();
                }
        }
    }
}

} // namespace

TEST(LeafBrushes, ListsEveryBrushWithAFaceTheEyeSeesOnRandomWorlds) {
    Rng rng(41);
    Tally tally;
    for (int round = 0; round < 10; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const Level level = compiledLevel(randomWorld(rng, 30, 100, 1));
        ASSERT_TRUE(level.compiled.error.empty()) << level.compiled.error;
        auto eye = [&] { return randomEmptyPoint(rng, level.compiled.onion, 150); };
        expectEverySeenFaceListed(rng, level, eye, tally);
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(tally.facePointsSeen, 20000u);
}

TEST(LeafBrushes, ListsEveryBrushSeenOnAQuakeLevelAndLeavesMostOut) {
    const std::filesystem::path path = SHALLOT_SHARED_MAPS "/id_e1m1.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "no shared maps";
    const Level level = compiledLevel(loadMap(path.string()));
    ASSERT_TRUE(level.compiled.error.empty()) << level.compiled.error;
    const BspTree& t = level.compiled.onion;
    const std::vector<int32_t> rooms = eyeLeaves(t, EyesIn::Rooms);
    ASSERT_GT(rooms.size(), 100u);
    Rng rng(5);
    Tally tally;
    auto eye = [&] { return t.leaves[size_t(rooms[rng() % rooms.size()])].interiorPoint; };
    expectEverySeenFaceListed(rng, level, eye, tally);
    const double listed = tally.brushesListedFraction / tally.views;
    std::cout << "id_e1m1: " << tally.facePointsSeen << " face points seen, " << 100 * listed << "% of the brushes listed per view\n";
    EXPECT_GT(tally.facePointsSeen, 1000u);
    EXPECT_LT(listed, 0.3) << "most of a level's brushes are behind its walls";
}

TEST(LeafBrushes, InvalidBrushesAndUnseenLeavesListNothing) {
    Rng rng(9);
    Level level = compiledLevel(randomWorld(rng, 12, 80, 0));
    level.boxes.push_back(Aabb{}); // an invalid brush: no box
    const LeafBrushes near(level.compiled.onion, level.boxes);
    const std::vector<bool> none(level.compiled.onion.leafCount(), false);
    const std::vector<bool> all(level.compiled.onion.leafCount(), true);
    const std::vector<bool> nothing = near.seenBrushes(none);
    EXPECT_EQ(std::count(nothing.begin(), nothing.end(), true), 0);
    const std::vector<bool> everything = near.seenBrushes(all);
    // Every brush with a face in front of empty space is listed.
    size_t faced = 0;
    for (size_t b = 0; b + 1 < level.boxes.size(); ++b) {
        if (!level.geometry[b]) continue;
        for (const ConvexFace& face : level.geometry[b]->hull.faces) {
            const Vec3 front = face.polygon.centroid() + kInFrontOfFace * face.plane.normal;
            if (level.compiled.onion.isSolid(front, 0)) continue;
            ++faced;
            EXPECT_TRUE(everything[b]) << "brush " << b;
            break;
        }
    }
    EXPECT_GT(faced, 6u);
    EXPECT_FALSE(everything.back());
}
