#include "io/fgd_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>
#include <stdexcept>

using namespace shallot;

namespace {

// A small Quake-like definition file: base classes, point classes with sizes and colours, a
// solid class, choices and flags properties, comments, split and escaped descriptions.
const std::string kQuakeLike = R"FGD(// Quake-like test definitions
// (comments, base classes, inheritance)

@BaseClass = Appearflags [
	spawnflags(Flags) =
	[
		256 : "Not on Easy" : 0
		512 : "Not on Normal" : 0
	]
]
@BaseClass = Targetname [ targetname(target_source) : "Name" ]
@baseclass base(Appearflags) size(-16 -16 -24, 16 16 32) color(0 255 0) = PlayerClass []
@BaseClass base(Appearflags, Targetname) color(220 0 0) size(-16 -16 -24, 16 16 40) = Monster
[
	spawnflags(Flags) = [ 1 : "Ambush" : 0 ]
]
@BaseClass size(-32 -32 -24, 32 32 64) = Large []

@PointClass base(PlayerClass) = info_player_start : "Player 1 start" []
@PointClass base(Monster) model({ "path": ":progs/soldier.mdl" }) = monster_army : "Grunt" []
@PointClass base(Large, Monster) = monster_ogre : "Ogre" []
@PointClass base(Monster, Large) = monster_zombie : "Zombie" []
@PointClass base(Monster) size(-32 -32 -24, 32 32 64) color(255 128 0) = monster_shambler : "Shambler" +
	" (the big one)" []
@PointClass base(Monster) size(32 32 48) = monster_wizard : "Scrag" []
@PointClass size(0 0 0, 32 32 56) color(80 0 200) = item_shells : "Shells \"box\"" // a comment
[
	spawnflags(flags) = [ 1 : "Large box" : 0 ]
]
@PointClass color(255 255 40) = light : "Invisible light source"
[
	light(integer) : "Brightness" : 300
	style(Choices) : "Appearance" : 0 =
	[
		0 : "Normal"
		10: "Fluorescent flicker"
	]
	_color(color255) : "Colour" : "255 255 255"
]
@PointClass = info_null : "Spotlight target" []
@SolidClass base(Targetname) = func_door : "Basic door"
[
	speed(integer) : "Speed" : 100
	sounds(choices) : "Sound" : 0 = [ 0: "Silent" 1: "Stone" ]
	wait(string) : "Wait before close" : "3" : "seconds; -1 stays open"
]
@SolidClass = worldspawn : "World entity" [ message(string) : "Text on entering the world" ]
)FGD";

uint32_t rgba(uint32_t r, uint32_t g, uint32_t b) { return r << 24 | g << 16 | b << 8 | 0xffu; }

// Every warning is "file:line:column: ..." with the line and column it carries, inside the text.
void expectWellFormed(const FgdFile& f, const std::string& file, std::string_view text) {
    const int lines = 1 + int(std::count(text.begin(), text.end(), '\n') + std::count(text.begin(), text.end(), '\r'));
    EXPECT_LE(f.warnings.size(), kMaxFgdWarnings + 1);
    for (const MapWarning& w : f.warnings) {
        const std::string prefix = file + ":" + std::to_string(w.line) + ":" + std::to_string(w.column) + ": ";
        EXPECT_EQ(w.message.substr(0, prefix.size()), prefix) << w.message;
        EXPECT_GE(w.line, 1) << w.message;
        EXPECT_LE(w.line, lines) << w.message;
        EXPECT_GE(w.column, 1) << w.message;
        EXPECT_LE(size_t(w.column), text.size() + 1) << w.message;
    }
}

FgdFile read(std::string_view text, const std::string& file = "test.fgd") {
    FgdFile f = readFgd(text, file);
    expectWellFormed(f, file, text);
    return f;
}

// The one warning of `text`, expected at line:column and containing `fragment`.
void expectWarning(const FgdFile& f, int line, int column, const std::string& fragment) {
    for (const MapWarning& w : f.warnings)
        if (w.line == line && w.column == column && w.message.find(fragment) != std::string::npos) return;
    std::string all;
    for (const MapWarning& w : f.warnings) all += "\n  " + w.message;
    ADD_FAILURE() << "no warning at " << line << ":" << column << " with '" << fragment << "'; got:" << all;
}

std::string names(const EntityClassTable& t) {
    std::string out;
    for (const EntityClass& c : t.classes()) out += (out.empty() ? "" : " ") + c.name;
    return out;
}

} // namespace

// ---------------------------------------------------------------- the format

TEST(FgdReader, ReadsAQuakeLikeFile) {
    const FgdFile f = read(kQuakeLike);
    for (const MapWarning& w : f.warnings) ADD_FAILURE() << w.message;
    EXPECT_EQ(names(f.classes), "info_player_start monster_army monster_ogre monster_zombie monster_shambler "
                                "monster_wizard item_shells light info_null func_door worldspawn");
    EXPECT_EQ(f.classes.find("Monster"), nullptr) << "base classes are not entity classes";
    EXPECT_EQ(f.classes.find("PlayerClass"), nullptr);

    const EntityClass* start = f.classes.find("info_player_start");
    ASSERT_NE(start, nullptr);
    EXPECT_TRUE(start->hasSize);
    EXPECT_EQ(start->mins, Vec3(-16, -16, -24));
    EXPECT_EQ(start->maxs, Vec3(16, 16, 32));
    EXPECT_EQ(start->colour, rgba(0, 255, 0));
    EXPECT_EQ(start->category, EntityCategory::PlayerStart);
    EXPECT_EQ(start->motion, EntityMotion::None);
    EXPECT_FALSE(start->solidClass);
    EXPECT_EQ(start->description, "Player 1 start");

    const EntityClass* army = f.classes.find("MONSTER_ARMY"); // names compare ignoring case
    ASSERT_NE(army, nullptr);
    EXPECT_EQ(army->name, "monster_army");
    EXPECT_EQ(army->mins, Vec3(-16, -16, -24));
    EXPECT_EQ(army->maxs, Vec3(16, 16, 40));
    EXPECT_EQ(army->colour, rgba(220, 0, 0));
    EXPECT_EQ(army->category, EntityCategory::Monster);
    EXPECT_EQ(army->motion, EntityMotion::Walk);

    const EntityClass* shambler = f.classes.find("monster_shambler");
    ASSERT_NE(shambler, nullptr);
    EXPECT_EQ(shambler->mins, Vec3(-32, -32, -24)) << "its own size wins over its base's";
    EXPECT_EQ(shambler->maxs, Vec3(32, 32, 64));
    EXPECT_EQ(shambler->colour, rgba(255, 128, 0));
    EXPECT_EQ(shambler->description, "Shambler (the big one)");

    const EntityClass* shells = f.classes.find("item_shells");
    ASSERT_NE(shells, nullptr);
    EXPECT_EQ(shells->mins, Vec3(0, 0, 0));
    EXPECT_EQ(shells->maxs, Vec3(32, 32, 56));
    EXPECT_EQ(shells->colour, rgba(80, 0, 200));
    EXPECT_EQ(shells->category, EntityCategory::Item);
    EXPECT_EQ(shells->description, "Shells \"box\"");

    const EntityClass* light = f.classes.find("light");
    ASSERT_NE(light, nullptr);
    EXPECT_FALSE(light->hasSize);
    EXPECT_EQ(light->colour, rgba(255, 255, 40));
    EXPECT_EQ(light->category, EntityCategory::Light);

    const EntityClass* null = f.classes.find("info_null");
    ASSERT_NE(null, nullptr);
    EXPECT_FALSE(null->hasSize);
    EXPECT_EQ(null->category, EntityCategory::Other);
    EXPECT_EQ(null->colour, categoryColour(EntityCategory::Other));

    const EntityClass* door = f.classes.find("func_door");
    ASSERT_NE(door, nullptr);
    EXPECT_TRUE(door->solidClass);
    EXPECT_FALSE(door->hasSize);
    EXPECT_EQ(door->description, "Basic door");
    EXPECT_TRUE(f.classes.find("worldspawn")->solidClass);
}

TEST(FgdReader, BasesGiveSizeAndColourInTheirOrderAndOwnAttributesWin) {
    const FgdFile f = read(kQuakeLike);
    const EntityClass* ogre = f.classes.find("monster_ogre"); // base(Large, Monster)
    ASSERT_NE(ogre, nullptr);
    EXPECT_EQ(ogre->mins, Vec3(-32, -32, -24));
    EXPECT_EQ(ogre->maxs, Vec3(32, 32, 64));
    EXPECT_EQ(ogre->colour, rgba(220, 0, 0)) << "Large has no colour: Monster's";
    const EntityClass* zombie = f.classes.find("monster_zombie"); // base(Monster, Large)
    ASSERT_NE(zombie, nullptr);
    EXPECT_EQ(zombie->maxs, Vec3(16, 16, 40)) << "the first base with a size gives it";

    // Chains of bases, and a point class used as a base.
    const FgdFile g = read("@BaseClass color(1 2 3) = A []\n@BaseClass base(A) size(-1 -1 -1, 1 1 1) = B []\n"
                           "@PointClass base(B) = p1 []\n@PointClass base(p1) color(9 9 9) = p2 []\n");
    ASSERT_EQ(g.classes.classes().size(), 2u);
    EXPECT_EQ(g.classes.find("p1")->colour, rgba(1, 2, 3));
    EXPECT_EQ(g.classes.find("p1")->maxs, Vec3(1, 1, 1));
    EXPECT_EQ(g.classes.find("p2")->colour, rgba(9, 9, 9));
    EXPECT_EQ(g.classes.find("p2")->mins, Vec3(-1, -1, -1));
}

TEST(FgdReader, OneTripleSizeIsABoxCentredOnTheOrigin) {
    const FgdFile f = read(kQuakeLike);
    const EntityClass* wizard = f.classes.find("monster_wizard"); // size(32 32 48)
    ASSERT_NE(wizard, nullptr);
    EXPECT_TRUE(wizard->hasSize);
    EXPECT_EQ(wizard->mins, Vec3(-16, -16, -24));
    EXPECT_EQ(wizard->maxs, Vec3(16, 16, 24));
    // Six numbers without the comma are read as mins and maxs; reversed ones are swapped.
    const FgdFile g = read("@PointClass size(-8 -8 0 8 8 16) = a []\n@PointClass size(8 8 16, -8 -8 0) = b []");
    EXPECT_EQ(g.classes.find("a")->mins, Vec3(-8, -8, 0));
    EXPECT_EQ(g.classes.find("b")->mins, Vec3(-8, -8, 0));
    EXPECT_EQ(g.classes.find("b")->maxs, Vec3(8, 8, 16));
    expectWarning(g, 2, 13, "mins above maxs");
    // Halves too small for a normal double are 0 (they would not read back).
    const FgdFile h = read("@PointClass size(3e-308 1 -3e-308) = a []");
    EXPECT_EQ(h.classes.find("a")->mins, Vec3(0, -0.5, 0));
    EXPECT_EQ(h.classes.find("a")->maxs, Vec3(0, 0.5, 0));
    EXPECT_TRUE(h.warnings.empty());
}

TEST(FgdReader, SkipsOtherAttributesDeclarationsAndPropertySyntax) {
    const std::string text = R"FGD(@mapsize(-16384, 16384)
@MaterialExclusion
[
	"tools"
	"debug"
]
@AutoVisGroup = "Brushes"
[
	"Triggers" [ "trigger_once" "trigger_multiple" ]
]
@PointClass studio("models/a.mdl") iconsprite("sprites/a.spr") sprite() decal() flags(Light) halfgridsnap
	model({{ spawnflags & 1 -> ":maps/b_bh100.bsp", ":maps/b_bh25.bsp" }}) unknown(a (b [c]) "d)" e)
	size(-4 -4 -4, 4 4 4) = item_health : "Health" []
@NPCClass base() color(1 1 1) = npc_thing []
@KeyFrameClass = keyframe_thing : "k" []
@MoveClass = move_thing []
@FilterClass = filter_thing
[
	input Kill(void) : "Removes this entity"
	output OnPass(void) : "Fired when it passes"
	negated(choices) : "Filter mode" : "Allow entities that match criteria" : "long description" =
	[
		0 : "Allow entities that match criteria"
		1 : "Disallow entities that match criteria"
	]
	key(string) readonly : "Key" : : "an empty default"
]
@SolidClass = func_x : "split" + "description" + " in three" []
@PointClass = no_properties : "no brackets at all"
@PointClass = last
)FGD";
    const FgdFile f = read(text);
    for (const MapWarning& w : f.warnings) ADD_FAILURE() << w.message;
    EXPECT_EQ(names(f.classes),
              "item_health npc_thing keyframe_thing move_thing filter_thing func_x no_properties last");
    const EntityClass* health = f.classes.find("item_health");
    ASSERT_NE(health, nullptr);
    EXPECT_EQ(health->maxs, Vec3(4, 4, 4));
    EXPECT_EQ(f.classes.find("npc_thing")->colour, rgba(1, 1, 1));
    EXPECT_FALSE(f.classes.find("filter_thing")->solidClass);
    EXPECT_EQ(f.classes.find("func_x")->description, "splitdescription in three");

    const FgdFile g = read("@include \"base.fgd\"\n@Version(1) 2 3\n@PointClass = a []\n");
    EXPECT_EQ(names(g.classes), "a");
    ASSERT_EQ(g.warnings.size(), 2u);
    expectWarning(g, 1, 1, "@include \"base.fgd\" is not followed");
    expectWarning(g, 2, 1, "unknown declaration '@Version'");
}

TEST(FgdReader, EmptyAndCommentOnlyFilesGiveAnEmptyTable) {
    for (const char* text : {"", "   \n\t\r\n", "// only a comment", "// one\n// two\r\n//", "\xEF\xBB\xBF",
                             "@BaseClass = OnlyABase []", "@include \"x.fgd\""}) {
        const FgdFile f = read(text);
        EXPECT_TRUE(f.classes.classes().empty()) << text;
    }
}

TEST(FgdReader, MissingBasesAreWarnedOnceAndTheClassKept) {
    const FgdFile f = read("@PointClass base(Later, Nowhere) size(8 8 8) = a []\n"
                           "@PointClass base(Nowhere) = b []\n@BaseClass color(1 2 3) = Later []\n");
    ASSERT_EQ(f.classes.classes().size(), 2u);
    EXPECT_TRUE(f.classes.find("a")->hasSize);
    EXPECT_EQ(f.classes.find("a")->colour, categoryColour(EntityCategory::Other)) << "Later is declared after a";
    ASSERT_EQ(f.warnings.size(), 2u);
    expectWarning(f, 1, 18, "base class 'Later' of 'a' is not defined before it");
    expectWarning(f, 1, 25, "base class 'Nowhere' of 'a'");
}

TEST(FgdReader, DuplicateClassesTheLaterWins) {
    const FgdFile f = read("@PointClass size(1 1 1) = dup : \"first\" []\n@PointClass = other []\n"
                           "@SolidClass = DUP : \"second\" []\n"
                           "@BaseClass color(1 1 1) = B []\n@BaseClass color(2 2 2) = B []\n"
                           "@PointClass base(B) = c []");
    EXPECT_TRUE(f.warnings.empty());
    EXPECT_EQ(names(f.classes), "DUP other c");
    EXPECT_EQ(f.classes.find("dup")->description, "second");
    EXPECT_FALSE(f.classes.find("dup")->hasSize);
    EXPECT_TRUE(f.classes.find("dup")->solidClass);
    EXPECT_EQ(f.classes.find("c")->colour, rgba(2, 2, 2));
}

// ---------------------------------------------------------------- bad input

TEST(FgdReader, ABadClassIsSkippedWithItsPositionAndReadingGoesOn) {
    // Each case: a broken declaration between two good ones; the message's position.
    struct Case {
        std::string bad;
        int line, column;
        std::string fragment;
    };
    const std::vector<Case> cases = {
        {"@PointClass = : \"no name\" []", 2, 15, "expected a class name after '='"},
        {"@PointClass size(1 1 1) [] = x []", 2, 25, "expected an attribute such as size(...) or '='"},
        {"@PointClass = x : [ ]", 2, 19, "expected a quoted description"},
        {"@PointClass = x : \"d\" + ]", 2, 25, "expected a quoted description"},
        {"@PointClass = x \"stray\" []", 2, 17, "expected '[' to start the properties of class 'x'"},
        {"@PointClass = x [ a(string) : \"never closed\"\n", 2, 17, "'[' is not closed before '@PointClass' at 4:1"},
        {"@PointClass = x [ [ [ ] ]", 2, 17, "'[' is not closed"},
        {"@PointClass size(1 2 (3) = x []", 2, 17, "'(' of size is not closed before '@PointClass'"},
        {"@PointClass\n  model(( x ) = x []", 3, 8, "'(' of model is not closed"},
        {"garbage ( [ \"x\" ]", 2, 1, "unexpected 'garbage' after class 'good1'"},
        {"]]]) = x", 2, 1, "unexpected ']' after class 'good1'"},
        {"@PointClass base(A) =", 3, 1, "expected a class name after '=' of @PointClass, found '@PointClass'"},
    };
    for (const Case& c : cases) {
        const std::string text = "@PointClass = good1 []\n" + c.bad + "\n@PointClass = good2 []\n";
        SCOPED_TRACE(c.bad);
        const FgdFile f = read(text);
        EXPECT_EQ(names(f.classes), "good1 good2");
        ASSERT_EQ(f.warnings.size(), 1u);
        expectWarning(f, c.line, c.column, c.fragment);
    }
    // Junk after a complete class: the class is kept, the junk skipped.
    const FgdFile f = read("@PointClass = a [] ] junk\n@PointClass = b []");
    EXPECT_EQ(names(f.classes), "a b");
    expectWarning(f, 1, 20, "unexpected ']' after class 'a'");
}

TEST(FgdReader, UnterminatedStringsAreReportedAtTheirQuote) {
    const FgdFile f = read("@PointClass = a []\n@PointClass = b : \"never\n closed [] @PointClass = c []\n");
    EXPECT_EQ(names(f.classes), "a");
    ASSERT_EQ(f.warnings.size(), 1u);
    expectWarning(f, 2, 19, "unterminated string");
    // Inside a properties block and inside an attribute.
    expectWarning(read("@PointClass = z []\n@PointClass = a [ k(string) : \"x ]"), 2, 31, "unterminated string");
    expectWarning(read("@PointClass = a []\n@PointClass model(\"x) = b []"), 2, 19, "unterminated string");
    // Strings may span lines (real files have long descriptions so).
    const FgdFile g = read("@PointClass = a : \"line 1\nline 2\" []");
    EXPECT_EQ(g.classes.find("a")->description, "line 1\nline 2");
}

TEST(FgdReader, NonFiniteHugeOrMalformedSizesAreDroppedWithAWarning) {
    struct Case {
        std::string size;
        std::string fragment;
    };
    const std::vector<Case> cases = {
        {"size(nan 0 0, 1 1 1)", "is out of range"},
        {"size(0 0 0, inf 1 1)", "is out of range"},
        {"size(1e999 0 0, 1 1 1)", "is out of range"},
        {"size(-1e300 0 0, 1 1 1)", "is out of range"},
        {"size(0 0 0, 65537 1 1)", "finite numbers within +-65536"},
        {"size(1 2)", "expects 'x y z' or 'x y z, x y z'"},
        {"size(1 2 3, 4 5)", "expects 'x y z' or 'x y z, x y z'"},
        {"size(1 2, 3 4 5 6)", "expects 'x y z' or 'x y z, x y z'"},
        {"size(1 2 3, 4 5 6, 7 8 9)", "expects 'x y z' or 'x y z, x y z'"},
        {"size(a b c)", "expects numbers, found 'a'"},
        {"size(\"1\" 2 3)", "expects numbers"},
        {"size()", "expects 'x y z' or 'x y z, x y z'"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.size);
        const FgdFile f = read("@BaseClass size(1 1 1) = B []\n@PointClass " + c.size + " = a []\n"
                               "@PointClass " + c.size + " base(B) = b []\n");
        ASSERT_EQ(f.classes.classes().size(), 2u);
        EXPECT_FALSE(f.classes.find("a")->hasSize);
        EXPECT_TRUE(f.classes.find("b")->hasSize) << "a dropped size leaves the base's";
        ASSERT_EQ(f.warnings.size(), 2u);
        EXPECT_EQ(f.warnings[0].line, 2);
        EXPECT_NE(f.warnings[0].message.find(c.fragment), std::string::npos) << f.warnings[0].message;
    }
    expectWarning(read("@PointClass size(0 0 0,\n  1 nan 1) = a []"), 2, 5, "'nan' is out of range");
    // 65536 itself is accepted.
    EXPECT_TRUE(read("@PointClass size(-65536 0 0, 65536 1 1) = a []").classes.find("a")->hasSize);
}

TEST(FgdReader, ColoursAreClampedOrDropped) {
    const FgdFile f = read("@PointClass color(300 -5 12.6) = a []\n@PointClass color(1 2) = b []\n"
                           "@PointClass color(1 2 nan) = c []\n@PointClass color(1 2 3 4) = d []\n");
    EXPECT_EQ(f.classes.find("a")->colour, rgba(255, 0, 13));
    expectWarning(f, 1, 19, "'300' is clamped");
    expectWarning(f, 1, 23, "'-5' is clamped");
    EXPECT_EQ(f.classes.find("b")->colour, categoryColour(EntityCategory::Other));
    expectWarning(f, 2, 13, "color(...) expects three numbers");
    EXPECT_EQ(f.classes.find("c")->colour, categoryColour(EntityCategory::Other));
    expectWarning(f, 3, 23, "found 'nan'");
    EXPECT_EQ(f.classes.find("d")->colour, categoryColour(EntityCategory::Other));
    expectWarning(f, 4, 25, "found '4'");
}

TEST(FgdReader, ThrowsOnlyWhenNothingUsableIsLeft) {
    for (const char* text : {"garbage", "@PointClass = ", "@PointClass [", "@BaseClass = B []\n@PointClass ( = x []",
                             "\"unterminated"}) {
        SCOPED_TRACE(text);
        try {
            readFgd(text, "bad.fgd");
            ADD_FAILURE() << "no exception";
        } catch (const std::runtime_error& e) {
            EXPECT_EQ(std::string(e.what()).rfind("bad.fgd:", 0), 0u) << e.what();
        }
    }
    try {
        readFgd("\n  junk here\n@PointClass = x [", "bad.fgd");
        ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), "bad.fgd:2:3: expected a declaration such as @PointClass, found 'junk'")
            << "the first problem";
    }
    // One good class is enough; warnings alone (an include, a missing base) do not throw.
    EXPECT_NO_THROW(readFgd("garbage @PointClass = x []", "ok.fgd"));
    EXPECT_NO_THROW(readFgd("@include \"a.fgd\"\n@BaseClass base(Missing) = B []", "ok.fgd"));
}

TEST(FgdReader, PositionsCountBytesAndEveryKindOfLineEnd) {
    // LF, CRLF and CR each end one line; tabs are one column; a byte order mark is not counted.
    const FgdFile f = read("\xEF\xBB\xBF// x\n@PointClass = a []\r\n\t@PointClass : = b []\r@PointClass = c [] ?");
    EXPECT_EQ(names(f.classes), "a c");
    ASSERT_EQ(f.warnings.size(), 2u);
    expectWarning(f, 3, 14, "found ':'");
    expectWarning(f, 4, 20, "unexpected '?' after class 'c'");
    expectWarning(read("\xEF\xBB\xBF] @PointClass = z []"), 1, 1, "found ']'");
    // Control and non-ASCII bytes are shown escaped.
    expectWarning(read(std::string("@PointClass = a []\n\x01\xff", 21)), 2, 1, "'\\x01\\xff'");
}

// Every prefix of the test file: no crash; an exception only before the first point class is
// complete, and then in file:line:column form; the classes read are the whole file's, or the
// last one with its name cut short.
TEST(FgdReader, TruncatedAtEveryByte) {
    const FgdFile whole = read(kQuakeLike);
    const size_t firstClassEnd = kQuakeLike.find("\"Player 1 start\" []") + 19;
    for (size_t n = 0; n <= kQuakeLike.size(); ++n) {
        const std::string_view cut(kQuakeLike.data(), n);
        try {
            const FgdFile f = readFgd(cut, "cut.fgd");
            expectWellFormed(f, "cut.fgd", cut);
            for (const EntityClass& c : f.classes.classes())
                EXPECT_TRUE(std::any_of(whole.classes.classes().begin(), whole.classes.classes().end(),
                                        [&](const EntityClass& w) { return w.name.rfind(c.name, 0) == 0; }))
                    << n << ": " << c.name;
            if (n == kQuakeLike.size()) {
                EXPECT_EQ(names(f.classes), names(whole.classes));
            }
        } catch (const std::runtime_error& e) {
            EXPECT_LT(n, firstClassEnd) << e.what();
            EXPECT_EQ(std::string(e.what()).rfind("cut.fgd:", 0), 0u) << e.what();
        }
    }
}

// Every byte of the test file replaced by each structural character in turn.
TEST(FgdReader, EveryByteReplacedByAStructuralCharacter) {
    size_t classes = 0;
    for (size_t i = 0; i < kQuakeLike.size(); ++i)
        for (const char c : std::string("\"[]():=,@/\\+\0", 13)) {
            std::string text = kQuakeLike;
            text[i] = c;
            try {
                const FgdFile f = readFgd(text, "mutated.fgd");
                expectWellFormed(f, "mutated.fgd", text);
                classes += f.classes.classes().size();
            } catch (const std::runtime_error& e) {
                EXPECT_EQ(std::string(e.what()).rfind("mutated.fgd:", 0), 0u) << e.what();
            }
        }
    EXPECT_GT(classes, 0u);
}

TEST(FgdReader, DeepNestingIsNotRecursion) {
    const size_t n = 1000000;
    // Brackets in a properties block, parentheses in an attribute: balanced and unbalanced.
    const FgdFile a = read("@PointClass = a " + std::string(n, '[') + std::string(n, ']') + "\n@PointClass = b []");
    EXPECT_EQ(names(a.classes), "a b");
    const FgdFile b = read("@PointClass = a " + std::string(n, '[') + "\n@PointClass = b []");
    EXPECT_EQ(names(b.classes), "b");
    expectWarning(b, 1, 17, "'[' is not closed before '@PointClass' at 2:1");
    const FgdFile c = read("@PointClass model" + std::string(n, '(') + std::string(n, ')') + " = a []");
    EXPECT_EQ(names(c.classes), "a");
    EXPECT_THROW(readFgd("@PointClass model" + std::string(n, '('), "deep.fgd"), std::runtime_error);
    const FgdFile d = read(std::string(n, ']') + std::string(n, ')') + "@PointClass = a []");
    EXPECT_EQ(names(d.classes), "a");
    EXPECT_EQ(d.warnings.size(), 1u) << "one message for the whole run of junk";
}

TEST(FgdReader, TenMegabytesOfGarbage) {
    std::mt19937 rng(20240611);
    // Random bytes; fgd's own characters (a quote left open ends the file early); fgd's words.
    const std::string alphabet = "@@@PointClass SolidClass BaseClass base size color()[]::==,,\"\\+-0123456789.e \n\t/";
    const std::vector<std::string> words = {"@PointClass", "@SolidClass", "@BaseClass", "@include", "base(", "size(",
                                            "color(", "model(", "(", ")", "[", "]", "=", ":", ",", "+", "\"d\"",
                                            "-16", "16", "1e999", "nan", "255", "A", "B", "monster_x", "//", "\n"};
    for (int round = 0; round < 3; ++round) {
        std::string text;
        text.reserve((10u << 20) + 16);
        while (text.size() < (10u << 20)) {
            if (round == 0) text += char(rng() & 0xff);
            else if (round == 1) text += alphabet[rng() % alphabet.size()];
            else text += words[rng() % words.size()] + ' ';
        }
        const auto start = std::chrono::steady_clock::now();
        try {
            const FgdFile f = readFgd(text, "garbage.fgd");
            expectWellFormed(f, "garbage.fgd", text);
            std::cout << "  round " << round << ": " << f.classes.classes().size() << " classes, "
                      << f.warnings.size() << " warnings";
        } catch (const std::runtime_error& e) {
            EXPECT_EQ(std::string(e.what()).rfind("garbage.fgd:", 0), 0u) << e.what();
            std::cout << "  round " << round << ": throws";
        }
        std::cout << " in "
                  << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s\n";
    }
}

TEST(FgdReader, WarningsStopAtTheLimitWithACount) {
    std::string text;
    for (size_t i = 0; i < kMaxFgdWarnings + 50; ++i) text += "@PointClass color(1) = c" + std::to_string(i) + " []\n";
    const FgdFile f = read(text);
    EXPECT_EQ(f.classes.classes().size(), kMaxFgdWarnings + 50);
    ASSERT_EQ(f.warnings.size(), kMaxFgdWarnings + 1);
    EXPECT_EQ(f.warnings.back().line, int(kMaxFgdWarnings) + 1);
    EXPECT_NE(f.warnings.back().message.find("(and 49 more problems not listed)"), std::string::npos)
        << f.warnings.back().message;
}

// ---------------------------------------------------------------- with Quake's classes

TEST(FgdReader, MergedIntoQuakeKnownMonstersKeepHowTheyMove) {
    EntityClassTable table = EntityClassTable::quake();
    table.merge(read(kQuakeLike).classes);
    const EntityClass* wizard = table.find("monster_wizard");
    ASSERT_NE(wizard, nullptr);
    EXPECT_EQ(wizard->motion, EntityMotion::Fly) << "an .fgd cannot say that the scrag flies";
    EXPECT_EQ(wizard->maxs, Vec3(16, 16, 24)) << "the .fgd's size wins";
    EXPECT_EQ(table.find("monster_army")->motion, EntityMotion::Walk);
    EXPECT_EQ(table.find("monster_army")->colour, rgba(220, 0, 0));
    // A class the .fgd gives no size keeps Quake's.
    const EntityClass* light = table.find("light");
    EXPECT_EQ(light->colour, rgba(255, 255, 40));
    EXPECT_FALSE(light->hasSize);
    EXPECT_NE(table.find("item_shells"), nullptr);
    // A monster unknown to Quake walks.
    table.merge(read("@PointClass size(16 16 16) = monster_new []").classes);
    EXPECT_EQ(table.find("monster_new")->motion, EntityMotion::Walk);
}
