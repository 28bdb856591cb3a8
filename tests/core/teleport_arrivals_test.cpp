// Where teleporters set the player down (check/teleport_arrivals.h): a destination whose
// raised origin puts the player's box in the floor or a wall is reported as stuck, naming
// its teleporters; one the box fits at is not, nor is one with no teleporter.
#include "mover_maps.h"

#include "check/teleport_arrivals.h"
#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

// A closed room 1024 across (floor top at 0, walls at x +-512, ceiling at 256) with the
// given entities after worldspawn (entity 1 on).
struct Level {
    MapFile map;
    CompileResult compiled;

    explicit Level(const std::string& entities) {
        const std::string text =
            entityText({{"classname", "worldspawn"}},
                       {boxBrush(-576, -576, -64, 576, 576, 0), boxBrush(-576, -576, 256, 576, 576, 320),
                        boxBrush(-576, -576, 0, -512, 576, 256), boxBrush(512, -576, 0, 576, 576, 256),
                        boxBrush(-576, -576, 0, 576, -512, 256), boxBrush(-576, 512, 0, 576, 576, 256)}) +
            entities;
        MapReadResult read = readMap(text, "teleports.map");
        EXPECT_TRUE(read.ok());
        map = *read.map;
        compiled = compileWorld(worldFromMap(map));
    }
    std::vector<SpawnProblem> check() const { return checkTeleportArrivals(compiled.onion, map, buildEntityGraph(map)); }
};

std::string teleporter(const std::string& target, int x) {
    return entityText({{"classname", "trigger_teleport"}, {"target", target}}, {boxBrush(x, -32, 0, x + 64, 32, 64)});
}
std::string destination(const std::string& name, const std::string& origin) {
    return entityText({{"classname", "info_teleport_destination"}, {"targetname", name}, {"origin", origin}});
}

} // namespace

TEST(TeleportArrivals, ADestinationInTheFloorOrAWallIsStuck) {
    // Entities: 1, 2 send to "low" (3: 40 below the floor's top, so the raised origin puts
    // the box's feet 37 into the floor), 4 to "wall" (5: in the wall at x 512), 6 to "fine"
    // (7: on the floor), 8 names nobody.
    const Level level(teleporter("low", -400) + teleporter("low", -300) + destination("low", "0 0 -40") +
                      teleporter("wall", -200) + destination("wall", "512 0 24") + teleporter("fine", -100) +
                      destination("fine", "200 0 24") + destination("alone", "0 0 -100"));
    const std::vector<SpawnProblem> problems = level.check();
    ASSERT_EQ(problems.size(), 2u);
    EXPECT_EQ(problems[0].kind, SpawnProblemKind::Stuck);
    EXPECT_EQ(problems[0].entity, 3);
    EXPECT_EQ(problems[0].entities, (std::vector<int>{1, 2}));
    EXPECT_NE(problems[0].message.find("and 1 more"), std::string::npos) << problems[0].message;
    EXPECT_NE(problems[0].message.find("raised 27"), std::string::npos) << problems[0].message;
    EXPECT_EQ(problems[1].entity, 5);
    EXPECT_EQ(problems[1].entities, (std::vector<int>{4}));
    // The box tested is the player's (32 x 32 x 56) at the raised origin.
    const Aabb& box = problems[1].box;
    EXPECT_EQ(box.maxs - box.mins, Vec3(32, 32, 56));
    EXPECT_EQ((box.mins + box.maxs) / 2, Vec3(512, 0, 24 + 27 + 4));
}

TEST(TeleportArrivals, NothingWithoutThePlayersPose) {
    Level level(teleporter("low", -400) + destination("low", "0 0 -40"));
    ASSERT_FALSE(level.check().empty());
    EntityClassTable classes; // no info_player_start
    EXPECT_TRUE(checkTeleportArrivals(level.compiled.onion, level.map, buildEntityGraph(level.map), &classes).empty());
}
