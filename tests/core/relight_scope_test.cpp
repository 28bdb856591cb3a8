// What an edit leaves to relight (light/relight_scope.h): which entity edits are lights'
// only, and the region a brush edit touched.
#include "light/relight_scope.h"

#include <gtest/gtest.h>

using namespace shallot;

namespace {

MapEntity entity(std::vector<std::pair<std::string, std::string>> keys, std::vector<Brush> brushes = {}) {
    MapEntity e;
    e.keys = std::move(keys);
    e.brushes = std::move(brushes);
    return e;
}

} // namespace

TEST(RelightScope, OnlyLightsDifferWhenEveryOtherEntityStays) {
    const MapEntity world = entity({{"classname", "worldspawn"}});
    const MapEntity lamp = entity({{"classname", "light"}, {"origin", "0 0 64"}});
    const MapEntity moved = entity({{"classname", "light"}, {"origin", "32 0 64"}});
    const MapEntity ogre = entity({{"classname", "monster_ogre"}, {"origin", "64 0 24"}});
    const MapEntity door = entity({{"classname", "func_door"}}, {Brush::box(Vec3(0, 0, 0), Vec3(8, 64, 96))});
    const MapEntity doorMoved = entity({{"classname", "func_door"}}, {Brush::box(Vec3(16, 0, 0), Vec3(24, 64, 96))});
    const std::vector<MapEntity> before{world, lamp, ogre, door};
    EXPECT_TRUE(onlyLightsDiffer(before, {world, moved, ogre, door}));
    EXPECT_TRUE(onlyLightsDiffer(before, {world, ogre, door}));                  // a light deleted
    EXPECT_TRUE(onlyLightsDiffer(before, {world, lamp, moved, ogre, door}));     // one added
    EXPECT_TRUE(onlyLightsDiffer(before, {entity({{"classname", "worldspawn"}, {"light", "20"}}), lamp, ogre, door}));
    EXPECT_TRUE(onlyLightsDiffer(before, {world, lamp, door, ogre}));            // reordered
    EXPECT_FALSE(onlyLightsDiffer(before, {world, lamp, door}));                 // the ogre deleted
    EXPECT_FALSE(onlyLightsDiffer(before, {world, lamp, ogre, doorMoved}));      // a brush entity moved: other faces
    EXPECT_TRUE(sameEntities(before, before));
    EXPECT_FALSE(sameEntities(before, {world, moved, ogre, door}));
    EXPECT_FALSE(sameEntities(before, {world, lamp, ogre}));
}

TEST(RelightScope, TheRegionHoldsEveryChangedBrushBeforeAndAfter) {
    const Aabb bounds{Vec3::Constant(-4096), Vec3::Constant(4096)};
    const std::vector<Brush> before{Brush::box(Vec3(0, 0, 0), Vec3(64, 64, 64)), Brush::box(Vec3(100, 0, 0), Vec3(164, 64, 64)),
                                    Brush::box(Vec3(200, 0, 0), Vec3(264, 64, 64))};
    // Nothing changed: an empty region.
    const std::optional<Aabb> none = changedBrushRegion(before, before, bounds);
    ASSERT_TRUE(none.has_value());
    EXPECT_TRUE(none->empty());
    // The middle brush moved up: both of its places, nothing of the others.
    std::vector<Brush> moved = before;
    moved[1] = Brush::box(Vec3(100, 0, 100), Vec3(164, 64, 164));
    const std::optional<Aabb> region = changedBrushRegion(before, moved, bounds);
    ASSERT_TRUE(region.has_value());
    EXPECT_EQ(region->mins, Vec3(100, 0, 0));
    EXPECT_EQ(region->maxs, Vec3(164, 64, 164));
    // The first deleted: it alone, though the others shifted down an index.
    const std::vector<Brush> deleted(before.begin() + 1, before.end());
    const std::optional<Aabb> gone = changedBrushRegion(before, deleted, bounds);
    ASSERT_TRUE(gone.has_value());
    EXPECT_EQ(gone->mins, Vec3(0, 0, 0));
    EXPECT_EQ(gone->maxs, Vec3(64, 64, 64));
    // A brush added at the end.
    std::vector<Brush> added = before;
    added.push_back(Brush::box(Vec3(300, 0, 0), Vec3(310, 10, 10)));
    const std::optional<Aabb> fresh = changedBrushRegion(before, added, bounds);
    ASSERT_TRUE(fresh.has_value());
    EXPECT_EQ(fresh->mins, Vec3(300, 0, 0));
    // An invalid changed brush: relight everything.
    std::vector<Brush> broken = before;
    broken[0] = Brush::fromPlanes({Plane{Vec3::UnitZ(), 0}});
    EXPECT_FALSE(changedBrushRegion(before, broken, bounds).has_value());
}
