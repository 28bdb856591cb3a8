// Where a pose can stand in a column (nav/standing_place.h), against brute force: a point
// falling down the column from the top of the world, again and again from just below
// each solid it lands on, records every walkable floor it lands on.
#include "nav/standing_place.h"
#include "nav_helpers.h"
#include "test_maps.h"

#include <filesystem>
#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

// The brute force descends through solid this much at a time.
constexpr double kDescendStep = 0.25;
// Floors found both ways agree to this (the traces' landing points lie on the planes up to
// their own tolerance).
constexpr double kSameFloor = 0.02;

// The walkable floors a falling point lands on in the column at (x, y), lowest first.
std::vector<double> floorsByFalling(const BspTree& tree, const NavMesh& mesh, double x, double y) {
    std::vector<double> floors;
    for (double z = tree.bounds.maxs.z() - kDescendStep; z > tree.bounds.mins.z();) {
        const Vec3 p(x, y, z);
        if (tree.isSolid(p, mesh.pose)) {
            z -= kDescendStep;
            continue;
        }
        const Landing landed = dropToFloor(tree, mesh, p);
        if (!landed.landed) break;
        // A floor counts where the pose stands kStandingLift above it (as standingPlaces).
        if (landed.polygon >= 0 && !tree.isSolid(landed.point + Vec3::UnitZ() * kStandingLift, mesh.pose))
            floors.push_back(landed.point.z());
        z = landed.point.z() - kDescendStep;
    }
    std::reverse(floors.begin(), floors.end());
    return floors;
}

// Columns at random (x, y) in `box`: standingPlaces over the whole height gives the
// falling point's floors, and nearestStandingPlace from random heights the nearest below,
// else the nearest above. Returns how many columns had a floor.
int expectColumnsMatch(const BspTree& tree, const NavMesh& mesh, const Aabb& box, int columns, uint32_t seed) {
    Rng rng(seed);
    int withFloor = 0;
    for (int c = 0; c < columns; ++c) {
        const double x = uniform(rng, box.mins.x(), box.maxs.x()), y = uniform(rng, box.mins.y(), box.maxs.y());
        SCOPED_TRACE("column " + std::to_string(x) + " " + std::to_string(y));
        const std::vector<double> expected = floorsByFalling(tree, mesh, x, y);
        const std::vector<StandingPlace> places = standingPlaces(tree, mesh, x, y, tree.bounds.mins.z(), tree.bounds.maxs.z());
        EXPECT_EQ(places.size(), expected.size());
        if (places.size() != expected.size()) continue;
        for (size_t i = 0; i < places.size(); ++i) {
            EXPECT_NEAR(places[i].floor, expected[i], kSameFloor);
            EXPECT_EQ(places[i].point, Vec3(x, y, places[i].floor + kStandingLift));
            EXPECT_EQ(findPath(tree, mesh, places[i].point, places[i].point).found, true);
        }
        withFloor += !expected.empty();
        for (int k = 0; k < 4; ++k) {
            const double from = uniform(rng, tree.bounds.mins.z(), tree.bounds.maxs.z());
            const std::optional<StandingPlace> nearest =
                nearestStandingPlace(tree, mesh, x, y, from, tree.bounds.mins.z(), tree.bounds.maxs.z());
            std::optional<double> want;
            for (double f : expected)
                if (f <= from) want = f;
            if (!want)
                for (double f : expected)
                    if (f > from) {
                        want = f;
                        break;
                    }
            EXPECT_EQ(nearest.has_value(), want.has_value()) << "from " << from;
            if (want && nearest) {
                EXPECT_NEAR(nearest->floor, *want, kSameFloor) << "from " << from;
            }
        }
    }
    return withFloor;
}

} // namespace

TEST(StandingPlace, RandomRoomsAgreeWithAFallingPoint) {
    for (uint32_t seed = 1; seed <= 6; ++seed) {
        Rng rng(seed);
        const NavLevel l = compiledNavLevel(navRoom(randomRoomBrushes(rng)));
        ASSERT_TRUE(l.result.error.empty());
        for (int pose : {kNavPlayer, kNavLarge}) {
            SCOPED_TRACE("seed " + std::to_string(seed) + " pose " + std::to_string(pose));
            const NavMesh mesh = buildNavMesh(l.result.onion, pose);
            const int withFloor = expectColumnsMatch(l.result.onion, mesh, {Vec3(-32, -32, 0), Vec3(1056, 544, 0)}, 120, seed);
            EXPECT_GT(withFloor, 60); // most of the room's floor is open
        }
    }
}

// A wall across the room, floor to ceiling, and a ledge: from the working height a column
// in the wall, or within the player's half width of it, has no place below (the floor under
// the wall faces into solid); beside it the floor is found, and on the ledge its top.
TEST(StandingPlace, AWallIsSkippedNotStoodIn) {
    const NavLevel l = compiledNavLevel(navRoom({Brush::box({496, 0, 0}, {528, 512, 256}), Brush::box({700, 0, 0}, {800, 512, 64})}));
    const BspTree& tree = l.result.onion;
    const NavMesh mesh = buildNavMesh(tree, kNavPlayer);
    const double working = 46 + 24; // the player's eye as a reference point height (feet at 46)
    const double low = tree.bounds.mins.z(), high = tree.bounds.maxs.z();
    for (double x : {512.0, 496.0 - 8.0, 528.0 + 15.0})
        EXPECT_FALSE(nearestStandingPlace(tree, mesh, x, 256, working, low, high)) << x;
    const std::optional<StandingPlace> beside = nearestStandingPlace(tree, mesh, 496 - 17, 256, working, low, high);
    ASSERT_TRUE(beside);
    EXPECT_NEAR(beside->floor, 24, kSameFloor);
    // The ledge's top (64) is above the working height's floor: found searching up.
    const std::optional<StandingPlace> ledge = nearestStandingPlace(tree, mesh, 750, 256, working, low, high);
    ASSERT_TRUE(ledge);
    EXPECT_NEAR(ledge->floor, 64 + 24, kSameFloor);
    // Between heights that leave it out, nothing.
    EXPECT_FALSE(nearestStandingPlace(tree, mesh, 750, 256, working, low, working));
}

TEST(StandingPlace, IdE1m1AgreesWithAFallingPoint) {
    const std::filesystem::path path = SHALLOT_SHARED_MAPS "/id_e1m1.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "no shared id_e1m1.map";
    const NavLevel l = compiledNavLevel(loadMap(path.string()));
    ASSERT_TRUE(l.result.error.empty());
    const int pose = l.result.onion.poseIndex("player");
    ASSERT_GE(pose, 0);
    const NavMesh mesh = buildNavMesh(l.result.onion, pose, l.world.poses[size_t(pose)].nav);
    Aabb box; // the walkable surfaces' extent (the world box is mostly void)
    for (const NavPolygon& poly : mesh.polygons) box.add(poly.bounds);
    const int withFloor = expectColumnsMatch(l.result.onion, mesh, box, 400, 37);
    EXPECT_GT(withFloor, 20);
}
