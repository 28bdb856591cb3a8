#include "io/map_reader.h"
#include "io/map_to_world.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>

using namespace shallot;

namespace {

// The six faces of the box [lo, hi] in Quake's point order (normals outward).
std::string boxFaces(int x0, int y0, int z0, int x1, int y1, int z1, const std::string& tex = "WALL",
                     const std::string& params = "0 0 0 1 1") {
    auto pt = [](int x, int y, int z) {
        return "( " + std::to_string(x) + " " + std::to_string(y) + " " + std::to_string(z) + " ) ";
    };
    const std::string tail = tex + " " + params + "\n";
    return pt(x0, y0, z1) + pt(x0, y1, z1) + pt(x1, y0, z1) + tail + // +z
           pt(x0, y0, z0) + pt(x1, y0, z0) + pt(x0, y1, z0) + tail + // -z
           pt(x1, y0, z0) + pt(x1, y0, z1) + pt(x1, y1, z0) + tail + // +x
           pt(x0, y0, z0) + pt(x0, y1, z0) + pt(x0, y0, z1) + tail + // -x
           pt(x0, y1, z0) + pt(x1, y1, z0) + pt(x0, y1, z1) + tail + // +y
           pt(x0, y0, z0) + pt(x0, y0, z1) + pt(x1, y0, z0) + tail;  // -y
}

std::string brushText(const std::string& tex = "WALL") { return "{\n" + boxFaces(0, 0, 0, 64, 64, 64, tex) + "}\n"; }

MapFile parseOk(const std::string& text) {
    MapReadResult r = readMap(text, "test.map");
    EXPECT_TRUE(r.ok()) << r.error.format();
    return r.ok() ? std::move(*r.map) : MapFile{};
}

// Parses `text`, expecting an error at line:column whose message contains `fragment`.
void expectError(const std::string& text, int line, int column, const std::string& fragment) {
    MapReadResult r = readMap(text, "bad.map");
    ASSERT_FALSE(r.ok()) << "parsed without error:\n" << text.substr(0, 300);
    EXPECT_EQ(r.error.file, "bad.map");
    EXPECT_EQ(r.error.line, line) << r.error.format();
    EXPECT_EQ(r.error.column, column) << r.error.format();
    EXPECT_NE(r.error.message.find(fragment), std::string::npos) << r.error.format();
}

const std::string kFace = "( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 ) ";

} // namespace

// ---------------------------------------------------------------- format features

TEST(MapReader, StandardCube) {
    const std::string text = "{\n\"classname\" \"worldspawn\"\n\"wad\" \"gfx/base.wad\"\n" + brushText() +
                             "}\n{\n\"classname\" \"info_player_start\"\n\"origin\" \"32 32 24\"\n}\n";
    MapFile map = parseOk(text);
    EXPECT_EQ(map.file, "test.map");
    EXPECT_FALSE(map.valve220);
    EXPECT_TRUE(map.warnings.empty());
    ASSERT_EQ(map.entities.size(), 2u);
    const MapEntity& world = map.entities[0];
    EXPECT_EQ(world.line, 1);
    EXPECT_EQ(world.classname(), "worldspawn");
    ASSERT_EQ(world.keys.size(), 2u);
    EXPECT_EQ(world.keys[1].first, "wad");
    ASSERT_NE(world.value("wad"), nullptr);
    EXPECT_EQ(*world.value("wad"), "gfx/base.wad");
    EXPECT_EQ(world.value("nope"), nullptr);
    ASSERT_EQ(world.brushes.size(), 1u);

    const Brush& b = world.brushes[0];
    EXPECT_EQ(b.contents, BrushContents::Solid);
    EXPECT_EQ(b.source.file, "test.map");
    EXPECT_EQ(b.source.line, 4);
    EXPECT_EQ(b.source.entity, 0);
    EXPECT_EQ(b.source.brush, 0);
    ASSERT_EQ(b.sides.size(), 6u);
    const Vec3 expected[6] = {Vec3::UnitZ(), -Vec3::UnitZ(), Vec3::UnitX(), -Vec3::UnitX(), Vec3::UnitY(), -Vec3::UnitY()};
    const double dists[6] = {64, 0, 64, 0, 64, 0};
    for (int i = 0; i < 6; ++i) {
        const BrushSide& s = b.sides[size_t(i)];
        EXPECT_TRUE(s.hasPoints);
        EXPECT_EQ(s.texture, "WALL");
        EXPECT_EQ(s.textureParams, "0 0 0 1 1");
        EXPECT_EQ(s.line, 5 + i);
        EXPECT_LT((s.plane.normal - expected[i]).norm(), 1e-12) << i;
        EXPECT_NEAR(s.plane.dist, dists[i], 1e-12) << i;
        EXPECT_LT(s.plane.signedDistance(Vec3(32, 32, 32)), 0.0); // the solid is behind
    }
    EXPECT_EQ(b.sides[0].points[1], Vec3(0, 64, 64));
    EXPECT_EQ(map.entities[1].line, 13);
    EXPECT_TRUE(map.entities[1].brushes.empty());
}

TEST(MapReader, PlaneFromPointsMatchesQuake) {
    // From id's e1m1: normal = normalize((p1 - p2) x (p3 - p2)), dist = normal . p2.
    MapFile map = parseOk("{\n{\n( 448 -320 64 ) ( 448 -384 64 ) ( 448 -384 0 ) SLIPBOTSD 0 0 90 -1.000000 1.000000\n}\n}\n");
    const BrushSide& s = map.entities[0].brushes[0].sides.at(0);
    EXPECT_EQ(s.plane.normal, Vec3(-1, 0, 0));
    EXPECT_EQ(s.plane.dist, -448);
    EXPECT_EQ(s.textureParams, "0 0 90 -1.000000 1.000000");
}

TEST(MapReader, Valve220Faces) {
    const std::string text =
        "// Game: Quake\n// Format: Valve\n{\n\"classname\" \"worldspawn\"\n\"mapversion\" \"220\"\n{\n"
        "( 704 1824 576 ) ( 704 1792 576 ) ( 704 1792 448 ) grk_brk16 [ -2.22045e-16 -1 0 112 ] [ 0 0 -1 0 ] 0 1 1\n"
        "( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 ) tex [ 1 0 0 0.5 ] [ 0 -1 0 -16.25 ] 45.5 0.25 2\n"
        "}\n}\n";
    MapFile map = parseOk(text);
    EXPECT_TRUE(map.valve220);
    const auto& sides = map.entities.at(0).brushes.at(0).sides;
    ASSERT_EQ(sides.size(), 2u);
    EXPECT_EQ(sides[0].texture, "grk_brk16");
    EXPECT_EQ(sides[0].textureParams, "[ -2.22045e-16 -1 0 112 ] [ 0 0 -1 0 ] 0 1 1");
    EXPECT_EQ(sides[1].textureParams, "[ 1 0 0 0.5 ] [ 0 -1 0 -16.25 ] 45.5 0.25 2");
    EXPECT_EQ(sides[0].plane.normal, Vec3(-1, 0, 0));
}

TEST(MapReader, Valve220DetectedFromFacesAlone) {
    MapFile map = parseOk("{\n{\n" + kFace + "t [ 1 0 0 0 ] [ 0 1 0 0 ] 0 1 1\n}\n}\n");
    EXPECT_TRUE(map.valve220);
    MapFile declared = parseOk("{\n\"classname\" \"worldspawn\"\n\"mapversion\" \"220\"\n}\n");
    EXPECT_TRUE(declared.valve220);
}

TEST(MapReader, CommentsEverywhere) {
    const std::string text = "// header { ( } \"\n"
                             "{ // entity\n"
                             "\"classname\" \"worldspawn\" // trailing\n"
                             "// \"key\" \"not a key\"\n"
                             "{//brush\n" +
                             kFace + "T 0 0 0 1 1 // face comment\n" + kFace + "T 0 0 0 1 1//tight\n" +
                             "}\n}\n// no newline at the end";
    MapFile map = parseOk(text);
    ASSERT_EQ(map.entities.size(), 1u);
    EXPECT_EQ(map.entities[0].keys.size(), 1u);
    const auto& sides = map.entities[0].brushes.at(0).sides;
    ASSERT_EQ(sides.size(), 2u);
    EXPECT_EQ(sides[0].textureParams, "0 0 0 1 1");
    EXPECT_EQ(sides[1].textureParams, "0 0 0 1 1");
}

TEST(MapReader, QuotedStringsAndTextures) {
    const std::string text = "{\n\"classname\" \"worldspawn\"\n\"message\" \"Hello { world } // not a comment\"\n"
                             "\"wad\" \"c:\\quake\\id1\\gfx.wad\"\n\"\" \"\"\n{\n" +
                             kFace + "\"my tex\" 0 0 0 1 1\n" + kFace + "{fence 1 2 3 4 5\n" + kFace +
                             "\"*water 1\" [ 1 0 0 0 ] [ 0 1 0 0 ] 0 1 1\n}\n}\n";
    MapFile map = parseOk(text);
    const MapEntity& e = map.entities.at(0);
    EXPECT_EQ(*e.value("message"), "Hello { world } // not a comment");
    EXPECT_EQ(*e.value("wad"), "c:\\quake\\id1\\gfx.wad");
    ASSERT_NE(e.value(""), nullptr);
    const auto& sides = e.brushes.at(0).sides;
    ASSERT_EQ(sides.size(), 3u);
    EXPECT_EQ(sides[0].texture, "my tex");
    EXPECT_EQ(sides[0].textureParams, "0 0 0 1 1");
    EXPECT_EQ(sides[1].texture, "{fence");
    EXPECT_EQ(sides[1].textureParams, "1 2 3 4 5");
    EXPECT_EQ(sides[2].texture, "*water 1");
    EXPECT_EQ(e.brushes[0].contents, BrushContents::Water);
}

TEST(MapReader, KeysKeepOrderAndLastDuplicateWins) {
    MapFile map = parseOk("{\n\"b\" \"1\"\n\"a\" \"2\"\n\"b\" \"3\"\n}\n");
    const MapEntity& e = map.entities.at(0);
    ASSERT_EQ(e.keys.size(), 3u);
    EXPECT_EQ(e.keys[0], std::make_pair(std::string("b"), std::string("1")));
    EXPECT_EQ(e.keys[1].first, "a");
    EXPECT_EQ(*e.value("b"), "3");
    EXPECT_EQ(e.classname(), "");
}

TEST(MapReader, NumberForms) {
    const std::string text = "{\n{\n"
                             "( 0.5 -0 1e-05 ) ( +16 1E+2 -2.22045e-16 ) ( .25 3. 7 ) T 0 0 0 1 1\n"
                             "( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 ) T -1.5e1 2.000000 -90 0.5 -1\n"
                             "}\n}\n";
    MapFile map = parseOk(text);
    const auto& sides = map.entities.at(0).brushes.at(0).sides;
    ASSERT_EQ(sides.size(), 2u);
    EXPECT_EQ(sides[0].points[0], Vec3(0.5, 0, 1e-05));
    EXPECT_EQ(sides[0].points[1], Vec3(16, 100, -2.22045e-16));
    EXPECT_EQ(sides[0].points[2], Vec3(0.25, 3, 7));
    EXPECT_EQ(sides[1].textureParams, "-1.5e1 2.000000 -90 0.5 -1");
}

TEST(MapReader, ExtraTrailingFields) {
    const std::string text = "{\n{\n" + kFace + "q2 0 0 0 1 1 0 0 0\n" + kFace + "h2 0 0 0 1 1 -1\n" + kFace +
                             "v [ 1 0 0 0 ] [ 0 1 0 0 ] 0 1 1 1 2 3.5 // c\n}\n}\n";
    MapFile map = parseOk(text);
    const auto& sides = map.entities.at(0).brushes.at(0).sides;
    ASSERT_EQ(sides.size(), 3u);
    EXPECT_EQ(sides[0].textureParams, "0 0 0 1 1 0 0 0");
    EXPECT_EQ(sides[1].textureParams, "0 0 0 1 1 -1");
    EXPECT_EQ(sides[2].textureParams, "[ 1 0 0 0 ] [ 0 1 0 0 ] 0 1 1 1 2 3.5");
}

TEST(MapReader, CrlfAndOddWhitespace) {
    std::string text = "\xEF\xBB\xBF{\r\n\t\"classname\"\t\"worldspawn\"  \r\n\r\n \v\f{\r\n";
    text += "\t(\t0 0 64\t)(0 1 64)( 1 0 64 )\tT\t0 0 0 1 1 \t \r\n";
    text += "  }  \r\n}\r\n{\r\"classname\" \"lone cr\"\r}";
    MapFile map = parseOk(text);
    ASSERT_EQ(map.entities.size(), 2u);
    const Brush& b = map.entities[0].brushes.at(0);
    EXPECT_EQ(b.source.line, 4);
    ASSERT_EQ(b.sides.size(), 1u);
    EXPECT_EQ(b.sides[0].line, 5);
    EXPECT_EQ(b.sides[0].textureParams, "0 0 0 1 1");
    EXPECT_EQ(map.entities[1].line, 8);
    EXPECT_EQ(map.entities[1].classname(), "lone cr");

    // Error positions count CRLF as one line break.
    expectError("{\r\n\"a\" \"b\"\r\n{\r\n" + kFace + "T 0 0 x 1 1\r\n}\r\n}\r\n", 4, 40, "expected number");
}

TEST(MapReader, BrushOnOneLine) {
    MapFile map = parseOk("{ \"classname\" \"worldspawn\" { " + kFace + "T 0 0 0 1 1 1 " + kFace + "T 0 0 0 1 1 } }");
    const auto& sides = map.entities.at(0).brushes.at(0).sides;
    ASSERT_EQ(sides.size(), 2u);
    EXPECT_EQ(sides[0].textureParams, "0 0 0 1 1 1");
    EXPECT_EQ(sides[1].textureParams, "0 0 0 1 1");
}

TEST(MapReader, EmptyInputsAndEntities) {
    EXPECT_TRUE(parseOk("").entities.empty());
    EXPECT_TRUE(parseOk("  \n// only a comment\n\n").entities.empty());
    MapFile map = parseOk("{\n\"classname\" \"worldspawn\"\n}\n{\n\"classname\" \"func_group\"\n}\n{}\n{\n{\n}\n}\n");
    ASSERT_EQ(map.entities.size(), 4u);
    EXPECT_TRUE(map.entities[1].brushes.empty()); // brush entity with no brushes
    EXPECT_TRUE(map.entities[2].keys.empty());
    ASSERT_EQ(map.entities[3].brushes.size(), 1u); // a brush with no faces is kept for later checks
    EXPECT_TRUE(map.entities[3].brushes[0].sides.empty());
}

TEST(MapReader, CollinearFaceIsDroppedWithWarning) {
    const std::string text = "{\n{\n" + boxFaces(0, 0, 0, 64, 64, 64) + "  ( 0 0 0 ) ( 1 1 1 ) ( 2 2 2 ) T 0 0 0 1 1\n" +
                             "( 0 0 0 ) ( 0 0 0 ) ( 5 0 0 ) T 0 0 0 1 1\n}\n}\n";
    MapFile map = parseOk(text);
    EXPECT_EQ(map.entities.at(0).brushes.at(0).sides.size(), 6u);
    ASSERT_EQ(map.warnings.size(), 2u);
    EXPECT_EQ(map.warnings[0].line, 9);
    EXPECT_EQ(map.warnings[0].column, 3);
    EXPECT_EQ(map.warnings[0].message.rfind("test.map:9:3: ", 0), 0u) << map.warnings[0].message;
    EXPECT_NE(map.warnings[0].message.find("collinear"), std::string::npos);
    EXPECT_NE(map.warnings[0].message.find("brush 0 of entity 0"), std::string::npos);
    EXPECT_EQ(map.warnings[1].line, 10);
}

TEST(MapReader, ContentsFromTextures) {
    auto contentsOf = [](const std::string& brush) {
        MapFile map = parseOk("{\n" + brush + "}\n");
        return map.entities.at(0).brushes.at(0).contents;
    };
    EXPECT_EQ(contentsOf(brushText("WALL")), BrushContents::Solid);
    EXPECT_EQ(contentsOf(brushText("sky1")), BrushContents::Solid);
    EXPECT_EQ(contentsOf(brushText("*water0")), BrushContents::Water);
    EXPECT_EQ(contentsOf(brushText("*LAVA1")), BrushContents::Lava);
    EXPECT_EQ(contentsOf(brushText("*slime")), BrushContents::Slime);
    EXPECT_EQ(contentsOf(brushText("skip")), BrushContents::NonSolid);
    EXPECT_EQ(contentsOf(brushText("clip")), BrushContents::Clip);
    EXPECT_EQ(contentsOf(brushText("CLIP")), BrushContents::Clip);
    EXPECT_EQ(contentsOf(brushText("clipper")), BrushContents::Solid);
    // One side decides: any liquid side makes a liquid, else any clip side a clip brush.
    const std::string oneClip = "{\n" + kFace + "wall 0 0 0 1 1\n" + kFace + "Clip 0 0 0 1 1\n}\n";
    EXPECT_EQ(contentsOf(oneClip), BrushContents::Clip);
    const std::string mixed = "{\n" + kFace + "clip 0 0 0 1 1\n" + kFace + "*04water 0 0 0 1 1\n}\n";
    EXPECT_EQ(contentsOf(mixed), BrushContents::Water);
    // Hint brushes (hint and skip sides) block nothing; a skip side on a wall is a wall.
    EXPECT_EQ(contentsOf("{\n" + kFace + "hint 0 0 0 1 1\n" + kFace + "SKIP 0 0 0 1 1\n}\n"), BrushContents::NonSolid);
    EXPECT_EQ(contentsOf("{\n" + kFace + "wall 0 0 0 1 1\n" + kFace + "skip 0 0 0 1 1\n}\n"), BrushContents::Solid);
}

// ---------------------------------------------------------------- errors

TEST(MapReaderErrors, Format) {
    MapError e{"maps/a.map", 3, 7, "expected number"};
    EXPECT_EQ(e.format(), "maps/a.map:3:7: expected number");
    MapError noPos{"a.map", 0, 0, "cannot open"};
    EXPECT_EQ(noPos.format(), "a.map: cannot open");
}

TEST(MapReaderErrors, TopLevel) {
    expectError("foo", 1, 1, "expected '{'");
    expectError("\n\n  }", 3, 3, "unexpected '}'");
    expectError("{\n}\n\"key\" \"value\"\n", 3, 1, "expected '{'");
    expectError("{ } x", 1, 5, "found 'x'");
}

TEST(MapReaderErrors, UnterminatedStringsAndBraces) {
    expectError("{\n\"classname\" \"worldspawn\n}\n", 2, 13, "unterminated string");
    expectError("{\n\"classname\" \"worldspawn", 2, 13, "unterminated string");
    expectError("{\n\"classname\" \"worldspawn\"\n", 1, 1, "entity is not closed");
    expectError("{\n\"a\" \"b\"\n  {\n" + kFace + "T 0 0 0 1 1\n", 3, 3, "brush is not closed");
    expectError("{\n{\n" + kFace + "\"my tex 0 0 0 1 1\n}\n}\n", 3, 34, "unterminated string");
}

TEST(MapReaderErrors, KeysAndValues) {
    expectError("{\n\"classname\"\n}\n", 3, 1, "expected a quoted value for key 'classname'");
    expectError("{\n\"classname\" worldspawn\n}\n", 2, 13, "expected a quoted value");
    expectError("{\nclassname \"worldspawn\"\n}\n", 2, 1, "expected a quoted key");
}

TEST(MapReaderErrors, UnexpectedTokensInBrush) {
    expectError("{\n{\nbrushDef3\n{\n}\n}\n}\n", 3, 1, "unknown primitive 'brushDef3'");
    expectError("{\n{\n" + kFace + "T 0 0 0 1 1\n\"key\" \"v\"\n}\n}\n", 4, 1, "expected '(' to start a face");
    expectError("{\n{\n( 0 0 64 ) ( 0 1 64 ) [ 1 0 64 ] T 0 0 0 1 1\n}\n}\n", 3, 23, "expected '('");
    expectError("{\n{\n( 0 0 64 ( 0 1 64 ) ( 1 0 64 ) T 0 0 0 1 1\n}\n}\n", 3, 10, "expected ')'");
    expectError("{\n{\n( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 )\n}\n}\n", 3, 33, "expected texture name, found end of line");
    expectError("{\n{\n( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 ) ) 0 0 0 1 1\n}\n}\n", 3, 34, "expected texture name");
    expectError("{\n{\n" + kFace + "\"\" 0 0 0 1 1\n}\n}\n", 3, 34, "empty texture name");
    expectError("{\n{\n" + kFace + "T 0 0 0 1 1 foo\n}\n}\n", 3, 46, "expected number, found 'foo'");
    expectError("{\n{\n" + kFace + "T 0 0 0 1 1 ]\n}\n}\n", 3, 46, "expected number, found ']'");
    expectError("{\n{\n" + kFace + "T [ 1 0 0 0 ] [ 0 1 0 0 0 1 1\n}\n}\n", 3, 58, "expected ']'");
    expectError("{\n{\n" + kFace + "T [ 1 0 0 0 ] 0 1 1\n}\n}\n", 3, 48, "expected '['");
}

TEST(MapReaderErrors, NulAndControlBytes) {
    std::string text = "{\n{\n" + kFace + "T 0 0 0 1 1\n";
    text += '\0';
    text += "\n}\n}\n";
    expectError(text, 4, 1, "found '\\x00'");
    std::string inNumber = "{\n{\n" + kFace + "T 0 0 0 1 1";
    inNumber += std::string("\0", 1) + "\n}\n}\n";
    expectError(inNumber, 3, 45, "expected number");
}

TEST(MapReaderErrors, Nesting) {
    expectError("{\n{\n{\n}\n}\n}\n", 3, 1, "unexpected '{' inside a brush");
    expectError("{ { ( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 ) T 0 0 0 1 1 { } } }", 1, 50, "unexpected '{' inside a brush");
}

TEST(MapReaderErrors, MissingNumbers) {
    expectError("{\n{\n( 0 0 ) ( 0 1 64 ) ( 1 0 64 ) T 0 0 0 1 1\n}\n}\n", 3, 7, "expected number, found ')'");
    expectError("{\n{\n" + kFace + "T 0 0 0 1\n}\n}\n", 3, 43, "expected number, found end of line");
    expectError("{\n{\n" + kFace + "T 0 0 0 1 // c\n}\n}\n", 3, 48, "expected number, found end of line");
    expectError("{\n{\n" + kFace + "T\n}\n}\n", 3, 35, "expected texture parameters");
    expectError("{\n{\n" + kFace + "T [ 1 0 0 0 ] [ 0 1 0 0 ] 0 1\n}\n}\n", 3, 63, "expected number");
    expectError("{\n{\n( 0 0 64 ) ( 0 1", 3, 17, "expected number, found end of file");
}

TEST(MapReaderErrors, BadNumbers) {
    auto face = [](const std::string& x) { return "{\n{\n( " + x + " 0 64 ) ( 0 1 64 ) ( 1 0 64 ) T 0 0 0 1 1\n}\n}\n"; };
    expectError(face("1e999"), 3, 3, "number out of range: '1e999'");
    expectError(face("-1e400"), 3, 3, "number out of range");
    expectError(face("nan"), 3, 3, "not a finite number: 'nan'");
    expectError(face("NaN"), 3, 3, "not a finite number");
    expectError(face("inf"), 3, 3, "not a finite number");
    expectError(face("-inf"), 3, 3, "not a finite number: '-inf'");
    expectError(face("+INFINITY"), 3, 3, "not a finite number");
    expectError(face("-nan"), 3, 3, "not a finite number");
    expectError(face("1.2.3"), 3, 3, "invalid number '1.2.3'");
    expectError(face("12abc"), 3, 3, "invalid number");
    expectError(face("0x10"), 3, 3, "invalid number");
    expectError(face("-"), 3, 3, "invalid number");
    expectError(face("+-1"), 3, 3, "expected number");
    expectError(face("abc"), 3, 3, "expected number, found 'abc'");
    expectError("{\n{\n" + kFace + "T 0 0 0 1 1e999\n}\n}\n", 3, 44, "number out of range");
}

TEST(MapReaderErrors, Limits) {
    // Sides per brush.
    std::string face = kFace + "T 0 0 0 1 1\n";
    std::string many = "{\n{\n";
    for (size_t i = 0; i < kMaxBrushSides; ++i) many += face;
    MapFile ok = parseOk(many + "}\n}\n");
    EXPECT_EQ(ok.entities.at(0).brushes.at(0).sides.size(), kMaxBrushSides);
    expectError(many + face + "}\n}\n", int(kMaxBrushSides) + 3, 1, "more than 1024 sides");

    // Token length.
    const std::string longText(kMaxMapTokenBytes, 'a');
    EXPECT_TRUE(readMap("{\n\"k\" \"" + longText + "\"\n}\n", "t").ok());
    expectError("{\n\"k\" \"" + longText + "a\"\n}\n", 2, 5, "string is longer than 1048576 bytes");
    expectError("{\n\"k\" \"" + longText + "a", 2, 5, "string is longer than");
    expectError("{\n{\n" + kFace + longText + "a 0 0 0 1 1\n}\n}\n", 3, 34, "texture name is longer than");
    expectError("{\n{\n( " + std::string(kMaxMapTokenBytes + 1, '1') + " 0 0 ) ( 0 1 64 ) ( 1 0 64 ) T 0 0 0 1 1\n}\n}\n",
                3, 3, "number is longer than");
}

TEST(MapReaderErrors, EveryTruncationFailsCleanly) {
    const std::string text = "// c\n{\n\"classname\" \"worldspawn\"\n\"mapversion\" \"220\"\n{\n" + kFace +
                             "\"a b\" [ 1 0 0 0 ] [ 0 1 0 0 ] 0 1 1\n" + kFace + "T 0 0 0 1 1 // x\n}\n}\n{\n\"origin\" \"1 2 3\"\n}\n";
    for (size_t n = 0; n <= text.size(); ++n) {
        MapReadResult r = readMap(text.substr(0, n), "t.map");
        if (!r.ok()) {
            EXPECT_GE(r.error.line, 1);
            EXPECT_GE(r.error.column, 1);
            EXPECT_FALSE(r.error.message.empty());
        }
    }
}

TEST(MapReaderErrors, RandomMutationsNeverCrash) {
    const std::string base = "{\n\"classname\" \"worldspawn\"\n" + brushText("*water") +
                             "{\n" + kFace + "t [ 1 0 0 0 ] [ 0 1 0 0 ] 0 1 1\n}\n}\n";
    const std::string alphabet = "{}()[]\"/ \n\r\t0123456789.-+eE xyzclip*";
    std::mt19937 rng(1234);
    int failures = 0;
    for (int iter = 0; iter < 3000; ++iter) {
        std::string text = base;
        const int edits = 1 + int(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            const size_t at = rng() % (text.size() + 1);
            switch (rng() % 3) {
            case 0: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
            case 1: if (at < text.size()) text.erase(at, 1); break;
            default: if (at < text.size()) text[at] = char(rng() % 256); break;
            }
        }
        MapReadResult r = readMap(text, "fuzz.map");
        if (!r.ok()) {
            ++failures;
            EXPECT_GE(r.error.line, 1);
            EXPECT_GE(r.error.column, 1);
        }
    }
    EXPECT_GT(failures, 0);
}

TEST(MapReaderErrors, MissingFile) {
    MapReadResult r = readMapFile("/nonexistent/dir/none.map");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error.line, 0);
    EXPECT_EQ(r.error.format().rfind("/nonexistent/dir/none.map: cannot open", 0), 0u) << r.error.format();
}

// ---------------------------------------------------------------- conversion to World

namespace {
const std::string kEntities =
    "{\n\"classname\" \"worldspawn\"\n" + brushText() + brushText("*lava1") + "}\n" +            // 0: 2 brushes
    "{\n\"classname\" \"func_group\"\n" + brushText("clip") + "}\n" +                             // 1
    "{\n\"classname\" \"func_detail\"\n" + brushText() + "}\n" +                                  // 2
    "{\n\"classname\" \"func_detail_wall\"\n" + brushText() + "}\n" +                             // 3
    "{\n\"classname\" \"func_detail_illusionary\"\n" + brushText() + "}\n" +                      // 4
    "{\n\"classname\" \"func_door\"\n" + brushText() + brushText() + "}\n" +                      // 5
    "{\n\"classname\" \"trigger_once\"\n" + brushText("trigger") + "}\n" +                        // 6
    "{\n\"classname\" \"info_player_start\"\n\"origin\" \"-16 32.5 24\"\n}\n" +                   // 7
    "{\n\"classname\" \"light\"\n\"origin\" \"1 2\"\n}\n" +                                       // 8: bad origin
    "{\n\"classname\" \"func_wall\"\n\"origin\" \"0 0 0\"\n" + brushText() + "}\n" +              // 9: has brushes
    "{\n\"classname\" \"info_null\"\n\"origin\" \" +1e1\t-2 3 \"\n}\n";                            // 10
}

TEST(MapToWorld, DefaultSelection) {
    MapFile map = parseOk(kEntities);
    World world = worldFromMap(map);
    ASSERT_EQ(world.brushes.size(), 6u);
    EXPECT_EQ(world.brushes[0].contents, BrushContents::Solid);
    EXPECT_EQ(world.brushes[1].contents, BrushContents::Lava);
    EXPECT_EQ(world.brushes[2].contents, BrushContents::Clip);
    EXPECT_EQ(world.brushes[3].source.entity, 2);
    EXPECT_EQ(world.brushes[4].source.entity, 3);
    EXPECT_EQ(world.brushes[4].contents, BrushContents::Solid);
    EXPECT_EQ(world.brushes[5].source.entity, 4);
    EXPECT_EQ(world.brushes[5].contents, BrushContents::NonSolid); // illusionary
    EXPECT_EQ(world.brushes[1].source.brush, 1);
    EXPECT_EQ(world.brushes[1].describe(1), "test.map:" + std::to_string(world.brushes[1].source.line) +
                                                ": brush 1 of entity 0");

    const std::vector<Pose> quake = quakePoses();
    ASSERT_EQ(world.poses.size(), quake.size());
    for (size_t i = 0; i < quake.size(); ++i) {
        EXPECT_EQ(world.poses[i].name, quake[i].name);
        EXPECT_EQ(world.poses[i].mins, quake[i].mins);
        EXPECT_EQ(world.poses[i].maxs, quake[i].maxs);
    }
}

TEST(MapToWorld, Options) {
    MapFile map = parseOk(kEntities);
    World noDetail = worldFromMap(map, {.includeDetail = false});
    ASSERT_EQ(noDetail.brushes.size(), 3u);
    for (const Brush& b : noDetail.brushes) EXPECT_LE(b.source.entity, 1);

    World all = worldFromMap(map, {.includeDetail = true, .includeOtherEntities = true});
    ASSERT_EQ(all.brushes.size(), 10u);
    EXPECT_EQ(all.brushes[6].source.entity, 5);
    EXPECT_EQ(all.brushes[8].source.entity, 6);
    EXPECT_EQ(all.brushes[9].source.entity, 9);
}

TEST(MapToWorld, PointEntities) {
    MapFile map = parseOk(kEntities);
    std::vector<PointEntity> points = pointEntities(map);
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points[0].classname, "info_player_start");
    EXPECT_EQ(points[0].origin, Vec3(-16, 32.5, 24));
    EXPECT_EQ(points[0].line, map.entities[7].line);
    EXPECT_EQ(points[1].classname, "info_null");
    EXPECT_EQ(points[1].origin, Vec3(10, -2, 3));
}

// ---------------------------------------------------------------- the shared real maps

namespace {
struct SharedMap {
    int world;
    int other;
    int sides;
    bool valve;
};

// From ../shared/maps/README.md (unit/ counts measured with an independent script).
const std::map<std::string, SharedMap> kSharedMaps = {
    {"id_dm5.map", {392, 7, 2509, false}},
    {"id_e1m7.map", {424, 47, 2768, false}},
    {"id_dm3.map", {716, 10, 4296, false}},
    {"id_e1m1.map", {1163, 94, 7523, false}},
    {"id_e4m1.map", {1623, 89, 10011, false}},
    {"id_e3m5.map", {1934, 78, 12004, false}},
    {"ericw_retrojam1.map", {853, 38, 5075, false}},
    {"ericw_q1_mountain.map", {393, 0, 1586, true}},
    {"librequake_e3m4.map", {2946, 495, 22180, true}},
    {"unit/q1_cube.map", {1, 0, 6, true}},
    {"unit/q1_hull1_content_types.map", {18, 6, 144, true}},
    {"unit/q1_hull1_fail.map", {7, 0, 42, true}},
    {"unit/q1_hull_expansion.map", {6, 1, 41, true}},
    {"unit/q1_hull_expansion_lip.map", {8, 0, 46, true}},
    {"unit/q1_hulls.map", {2, 2, 24, true}},
    {"unit/q1_rocks.map", {18, 0, 84, true}},
    {"unit/q1_sealing_hull1_onnode.map", {6, 0, 36, false}},
};

const std::filesystem::path kSharedDir = SHALLOT_SHARED_MAPS;
} // namespace

TEST(MapSharedFiles, AllParseWithExpectedCounts) {
    if (!std::filesystem::is_directory(kSharedDir)) GTEST_SKIP() << "no shared maps at " << kSharedDir;
    int seen = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(kSharedDir)) {
        if (entry.path().extension() != ".map") continue;
        const std::string name = entry.path().lexically_relative(kSharedDir).generic_string();
        // The Quake 2 and Half-Life levels are other games' (issue #31), and ericw-tools'
        // test levels are compiled or refused one by one by tests/cli/ericw_testmaps_test.sh:
        // neither is in this table.
        if (name.rfind("games/", 0) == 0 || name.rfind("ericw_testmaps/", 0) == 0) continue;
        SCOPED_TRACE(name);
        ++seen;
        MapReadResult r = readMapFile(entry.path().string());
        ASSERT_TRUE(r.ok()) << r.error.format();
        const MapFile& map = *r.map;
        const auto expected = kSharedMaps.find(name);
        ASSERT_NE(expected, kSharedMaps.end()) << "add " << name << " to the table";

        int total = 0, sides = 0;
        for (const MapEntity& e : map.entities)
            for (const Brush& b : e.brushes) {
                ++total;
                sides += int(b.sides.size());
            }
        const World world = worldFromMap(map);
        EXPECT_EQ(int(world.brushes.size()), expected->second.world);
        EXPECT_EQ(total - int(world.brushes.size()), expected->second.other);
        EXPECT_EQ(sides + int(map.warnings.size()), expected->second.sides);
        EXPECT_EQ(map.valve220, expected->second.valve);
        EXPECT_EQ(map.entities.at(0).classname(), "worldspawn");
        for (const Brush& b : world.brushes) {
            EXPECT_GE(b.sides.size(), 4u) << b.describe(0);
            for (const BrushSide& s : b.sides) ASSERT_TRUE(s.plane.isFinite());
        }
        for (const MapWarning& w : map.warnings) std::cout << "  warning: " << w.message << "\n";
        EXPECT_FALSE(pointEntities(map).empty());
    }
    EXPECT_EQ(seen, int(kSharedMaps.size()));
}

// The other games' levels read as Quake maps today: each one loads, or is refused with a
// message that says where, never a crash.
TEST(MapSharedFiles, OtherGamesLevelsLoadOrSayWhere) {
    const std::filesystem::path games = kSharedDir / "games";
    if (!std::filesystem::is_directory(games)) GTEST_SKIP() << "no shared game levels at " << games;
    int loaded = 0, refused = 0;
    for (const auto& entry : std::filesystem::directory_iterator(games)) {
        if (entry.path().extension() != ".map") continue;
        SCOPED_TRACE(entry.path().filename().string());
        const MapReadResult r = readMapFile(entry.path().string());
        if (r.ok()) {
            ++loaded;
            EXPECT_EQ(r.map->entities.at(0).classname(), "worldspawn");
        } else {
            ++refused;
            EXPECT_NE(r.error.format().find(entry.path().filename().string() + ":"), std::string::npos) << r.error.format();
        }
    }
    EXPECT_GT(loaded + refused, 0);
    std::cout << "  " << loaded << " loaded, " << refused << " refused\n";
}

TEST(MapSharedFiles, ContentTypes) {
    const auto path = kSharedDir / "unit/q1_hull1_content_types.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP();
    MapReadResult r = readMapFile(path.string());
    ASSERT_TRUE(r.ok()) << r.error.format();
    // NonSolid counts every brush that blocks no box (liquids are Water, Lava, Slime).
    auto count = [](const World& w, BrushContents c) {
        int n = 0;
        for (const Brush& b : w.brushes)
            n += c == BrushContents::NonSolid ? !intersects(b.contents, defaultBlocking(false)) : b.contents == c;
        return n;
    };
    // worldspawn: 3 liquids, 1 clip, 8 solid (sky included); detail: 2 illusionary, 4 solid.
    const World world = worldFromMap(*r.map);
    EXPECT_EQ(count(world, BrushContents::NonSolid), 5);
    EXPECT_EQ(count(world, BrushContents::Clip), 1);
    EXPECT_EQ(count(world, BrushContents::Solid), 12);
    // func_wall adds 3 liquids, 1 clip, 2 solid.
    const World all = worldFromMap(*r.map, {.includeOtherEntities = true});
    EXPECT_EQ(count(all, BrushContents::NonSolid), 8);
    EXPECT_EQ(count(all, BrushContents::Clip), 2);
    EXPECT_EQ(count(all, BrushContents::Solid), 14);
}

TEST(MapSharedFiles, FirstFaceOfE1m1) {
    const auto path = kSharedDir / "id_e1m1.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP();
    MapReadResult r = readMapFile(path.string());
    ASSERT_TRUE(r.ok()) << r.error.format();
    const MapEntity& world = r.map->entities.at(0);
    EXPECT_EQ(*world.value("message"), "the Slipgate Complex");
    const Brush& b = world.brushes.at(0);
    EXPECT_EQ(b.source.line, 7);
    EXPECT_EQ(b.sides.at(0).plane.normal, Vec3(-1, 0, 0));
    EXPECT_EQ(b.sides.at(0).plane.dist, -448);
    EXPECT_EQ(b.sides.at(4).texture, "+0SLIPBOT");
}

TEST(MapSharedFiles, ParseTime) {
    const auto path = kSharedDir / "librequake_e3m4.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP();
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    double best = 1e9;
    for (int i = 0; i < 3; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        MapReadResult r = readMap(text, "librequake_e3m4.map");
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        ASSERT_TRUE(r.ok()) << r.error.format();
        best = std::min(best, ms);
    }
    std::cout << "  librequake_e3m4.map (" << text.size() << " bytes) parsed in " << best << " ms\n";
    EXPECT_LT(best, 2000.0); // generous: also runs in Debug and under sanitizers
}
