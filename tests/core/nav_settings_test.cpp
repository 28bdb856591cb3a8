// A pose's navigation settings (world/nav_settings.h) as text fields, and in a .map's pose
// keys: written only when they differ from the defaults, read back equal, bad ones refused.
#include "io/game_profile.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "io/map_writer.h"
#include "world/nav_settings.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace shallot;

TEST(NavSettings, DefaultsWriteNothingAndFieldsReadBackEqual) {
    EXPECT_EQ(navSettingsFields(NavSettings{}), "");
    NavSettings s;
    s.walkableNormalZ = 0.8;
    s.stepHeight = 24;
    s.maxDrop = 64.5;
    s.jump = true;
    s.jumpHeight = 45;
    s.jumpLength = 128;
    const std::string text = navSettingsFields(s);
    EXPECT_EQ(text, "slope=0.8 step=24 drop=64.5 jump=45,128");
    NavSettings back;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = std::min(text.find(' ', start), text.size());
        ASSERT_TRUE(applyNavSettingsField(std::string_view(text).substr(start, end - start), back));
        start = end + 1;
    }
    EXPECT_EQ(back, s);
    ASSERT_TRUE(applyNavSettingsField("drop=any", back));
    EXPECT_TRUE(std::isinf(back.maxDrop));
    ASSERT_TRUE(applyNavSettingsField("jump=off", back));
    EXPECT_FALSE(back.jump);
}

TEST(NavSettings, BadFieldsAreRefusedAndChangeNothing) {
    for (const char* bad : {"step=-1", "step=", "step=x", "drop=nan", "slope=0", "slope=1.5", "jump=45", "jump=45,",
                            "jump=a,b", "walk=3", "step"}) {
        NavSettings s;
        EXPECT_FALSE(applyNavSettingsField(bad, s)) << bad;
        EXPECT_EQ(s, NavSettings{}) << bad;
    }
}

TEST(NavSettings, PoseKeysCarryThemThroughAMap) {
    World world;
    world.poses = quakePoses();
    world.poses[2].nav.stepHeight = 24;
    world.poses[1].nav.jump = true;
    // Quake's own poses but for how two of them walk: the keys are written, all three.
    const MapFile map = mapFromWorld(world, {{"classname", "worldspawn"}}, {});
    ASSERT_EQ(map.entities[0].keys.size(), 4u);
    EXPECT_EQ(map.entities[0].keys[2].second, "player -16 -16 -24 16 16 32 jump=45,128");
    const MapReadResult read = readMap(writeMap(map), "nav.map");
    ASSERT_TRUE(read.ok()) << read.error.format();
    const World back = worldFromMap(*read.map);
    ASSERT_EQ(back.poses.size(), 3u);
    for (size_t i = 0; i < 3; ++i) EXPECT_EQ(back.poses[i].nav, world.poses[i].nav) << i;
    // With a blocking set before the fields.
    std::vector<std::string> warnings;
    MapFile keyed;
    keyed.entities.push_back({{{"classname", "worldspawn"}, {"_shallot_pose1", "walker -16 -16 -24 16 16 32 solid+monsterclip step=30 drop=any"}}, {}, 1});
    const World w = worldFromMap(keyed, {}, &warnings);
    ASSERT_EQ(w.poses.size(), 1u);
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(w.poses[0].nav.stepHeight, 30);
    ASSERT_TRUE(w.poses[0].blocking.has_value());
    // A bad field: the key is skipped with a warning naming it, as a bad box is.
    keyed.entities[0].keys[1].second = "walker -16 -16 -24 16 16 32 step=-4";
    const World skipped = worldFromMap(keyed, {}, &warnings);
    EXPECT_EQ(skipped.poses.size(), quakePoses().size()); // the game's poses instead
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("_shallot_pose1"), std::string::npos) << warnings[0];
}
