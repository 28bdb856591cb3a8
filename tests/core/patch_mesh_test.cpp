// Quake 3 patches (core/io/patch_mesh.h): the control grid read from patchDef2 text, its
// tessellation checked against the exact Bézier, and malformed text refused with a place.
#include "io/map_reader.h"
#include "io/patch_mesh.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

using namespace shallot;

namespace {

// A patch's text as a .map keeps it: groups[w][h] are the control points.
std::string patchText(const std::vector<std::vector<Vec3>>& groups) {
    std::string s = "{\npatchDef2\n{\ncommon/test\n( " + std::to_string(groups.size()) + " " + std::to_string(groups[0].size()) +
                    " 0 0 0 )\n(\n";
    for (const auto& g : groups) {
        s += "( ";
        for (const Vec3& p : g)
            s += "( " + std::to_string(p.x()) + " " + std::to_string(p.y()) + " " + std::to_string(p.z()) + " 0 0 ) ";
        s += ")\n";
    }
    return s + ")\n}\n}";
}

PatchDef parsed(const std::string& text) {
    const PatchParseResult r = parsePatchDef(text);
    EXPECT_TRUE(r.ok()) << r.error.line << ":" << r.error.column << ": " << r.error.message;
    return r.patch.value_or(PatchDef{});
}

} // namespace

TEST(PatchMesh, FlatPatchTessellatesIntoItsPlaneAndCorners) {
    // Groups run along x, points along y; interior control points pulled about in the plane.
    const PatchDef p = parsed(patchText({{Vec3(0, 0, 64), Vec3(0, 100, 64), Vec3(0, 256, 64)},
                                         {Vec3(40, 10, 64), Vec3(90, 170, 64), Vec3(70, 240, 64)},
                                         {Vec3(128, 0, 64), Vec3(128, 128, 64), Vec3(128, 256, 64)}}));
    EXPECT_EQ(p.shader, "common/test");
    ASSERT_EQ(p.width, 3);
    ASSERT_EQ(p.height, 3);
    const PatchMesh m = tessellatePatch(p, 8);
    ASSERT_EQ(m.columns, 9);
    ASSERT_EQ(m.rows, 9);
    ASSERT_EQ(m.vertices.size(), 81u);
    EXPECT_EQ(m.triangles().size(), 128u);
    for (const Vec3& v : m.vertices) EXPECT_DOUBLE_EQ(v.z(), 64.0);
    EXPECT_EQ(m.at(0, 0), Vec3(0, 0, 64));
    EXPECT_EQ(m.at(0, 8), Vec3(128, 0, 64));
    EXPECT_EQ(m.at(8, 0), Vec3(0, 256, 64));
    EXPECT_EQ(m.at(8, 8), Vec3(128, 256, 64));
    EXPECT_EQ(m.bounds.mins, Vec3(0, 0, 64));
    EXPECT_EQ(m.bounds.maxs, Vec3(128, 256, 64));
    // Every triangle is a proper one, facing along z.
    for (const auto& t : m.triangles()) {
        const Vec3 n = (m.vertices[size_t(t[1])] - m.vertices[size_t(t[0])]).cross(m.vertices[size_t(t[2])] - m.vertices[size_t(t[0])]);
        EXPECT_GT(std::abs(n.z()), 0.0);
        EXPECT_DOUBLE_EQ(n.x(), 0.0);
        EXPECT_DOUBLE_EQ(n.y(), 0.0);
    }
}

TEST(PatchMesh, CurvedPatchPointsLieOnTheExactBezier) {
    // A 5 x 3 arch: along x two quadratic spans, each a parabola rising 64 at its middle
    // control point: x(s) = 128 s and z(s) = 256 s (1 - s) on each span; y linear 0..192.
    std::vector<std::vector<Vec3>> groups;
    const double xs[5] = {0, 64, 128, 192, 256}, zs[5] = {0, 128, 0, 128, 0};
    for (int w = 0; w < 5; ++w) groups.push_back({Vec3(xs[w], 0, zs[w]), Vec3(xs[w], 96, zs[w]), Vec3(xs[w], 192, zs[w])});
    const PatchDef p = parsed(patchText(groups));
    ASSERT_EQ(p.width, 5);
    ASSERT_EQ(p.height, 3);
    const PatchMesh m = tessellatePatch(p, 8);
    ASSERT_EQ(m.columns, 17); // two sub-patches along the width, their shared edge once
    ASSERT_EQ(m.rows, 9);
    for (int r = 0; r < m.rows; ++r)
        for (int c = 0; c < m.columns; ++c) {
            const int span = std::min(c / 8, 1);
            const double s = (c - 8.0 * span) / 8.0;
            const Vec3 expected(128.0 * span + 128.0 * s, 192.0 * r / 8.0, 256.0 * s * (1 - s));
            EXPECT_NEAR((m.at(r, c) - expected).norm(), 0.0, 1e-9) << r << " " << c;
        }
    EXPECT_NEAR(m.bounds.maxs.z(), 64.0, 1e-9); // the top of each span: a quarter of 256
    // A doubly curved patch against the tensor product, at points off the grid too.
    std::vector<std::vector<Vec3>> bowl;
    for (int w = 0; w < 3; ++w) {
        bowl.emplace_back();
        for (int h = 0; h < 3; ++h) bowl.back().push_back(Vec3(64 * w, 64 * h, (w == 1 ? 32 : 0) + (h == 1 ? 48 : 0) + 7 * w * h));
    }
    const PatchDef q = parsed(patchText(bowl));
    const auto bern = [](int i, double t) { return i == 0 ? (1 - t) * (1 - t) : i == 1 ? 2 * t * (1 - t) : t * t; };
    for (double s : {0.0, 0.1, 0.5, 0.77, 1.0})
        for (double t : {0.0, 0.3, 0.5, 1.0}) {
            Vec3 expected = Vec3::Zero();
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) expected += bern(i, s) * bern(j, t) * bowl[size_t(i)][size_t(j)];
            EXPECT_NEAR((patchPoint(q, 0, 0, s, t) - expected).norm(), 0.0, 1e-9);
        }
    const PatchMesh qm = tessellatePatch(q, 4);
    EXPECT_NEAR((qm.at(2, 1) - patchPoint(q, 0, 0, 0.25, 0.5)).norm(), 0.0, 1e-12);
}

TEST(PatchMesh, MalformedPatchesGiveAnErrorWithAPlace) {
    const std::string good = patchText({{Vec3(0, 0, 0), Vec3(0, 1, 0), Vec3(0, 2, 0)},
                                        {Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(1, 2, 0)},
                                        {Vec3(2, 0, 0), Vec3(2, 1, 0), Vec3(2, 2, 0)}});
    ASSERT_TRUE(parsePatchDef(good).ok());
    struct Case {
        std::string text, message;
        int line;
    };
    const std::vector<Case> cases = {
        {"", "expected patchDef2", 1},
        {"{\npatchDef9\n{", "expected patchDef2, found 'patchDef9'", 2},
        {"{\npatchDef2\n{\nx\n( 4 3 0 0 0 )\n", "width must be an odd whole number from 3 to 65, found 4", 5},
        {"{\npatchDef2\n{\nx\n( 3 1 0 0 0 )\n", "height must be an odd whole number", 5},
        {"{\npatchDef2\n{\nx\n( 999999 3 0 0 0 )\n", "width must be an odd", 5},
        {"{\npatchDef2\n{\nx\n( 3 3 0 0 )\n", "size needs 5 numbers, found 4", 5},
        {"{\npatchDef2\n{\nx\n( 3 3 0 0 0 )\n(\n( ( 0 0 0 0 0 ) ( 0 0 0 0 ) ", "expected a number, found ')'", 7},
        {"{\npatchDef2\n{\nx\n( 3 3 0 0 0 )\n(\n( ( 0 0 zz 0 0 )", "expected a finite number, found 'zz'", 7},
        {"{\npatchDef2\n{\nx\n( 3 3 0 0 0 )\n(\n( ( 0 0 nan 0 0 )", "expected a finite number, found 'nan'", 7},
        {"{\npatchDef2\n{\nx\n( 3 3 0 0 0 )\n(\n( ( 0 0 0 0 0 ) ( 0 0 0 0 0 ) )", "expected '(' starting point 3 of 3 in group 1", 7},
        {good.substr(0, good.size() / 2), "", 0},
        {good + "\n}", "unexpected text after the patch: '}'", 13},
    };
    for (const Case& c : cases) {
        const PatchParseResult r = parsePatchDef(c.text);
        EXPECT_FALSE(r.ok()) << c.text;
        EXPECT_GT(r.error.line, 0) << c.text;
        EXPECT_GT(r.error.column, 0) << c.text;
        if (c.line > 0) {
            EXPECT_EQ(r.error.line, c.line) << c.text << "\n" << r.error.message;
        }
        EXPECT_NE(r.error.message.find(c.message), std::string::npos) << r.error.message;
    }
    // Every prefix of a good patch is refused cleanly, never a crash.
    for (size_t n = 0; n < good.size(); ++n) EXPECT_FALSE(parsePatchDef(good.substr(0, n)).ok()) << n;
    // An empty definition tessellates to nothing.
    EXPECT_TRUE(tessellatePatch(PatchDef{}).vertices.empty());
}

TEST(PatchMesh, TheMapReaderNamesAMalformedPatchByFileLineAndColumn) {
    const std::string map = "{\n\"classname\" \"worldspawn\"\n  {\npatchDef2\n{\nx\n( 3 3 0 0 0 )\n(\n( ( 0 0 q 0 0 ) )\n)\n}\n}\n}\n";
    const MapReadResult r = readMap(map, "bent.map");
    ASSERT_TRUE(r.ok()) << r.error.format(); // kept (written back), only not drawn
    ASSERT_EQ(r.map->entities[0].patches.size(), 1u);
    bool named = false;
    for (const MapWarning& w : r.map->warnings)
        if (w.message.find("bent.map:9:9: malformed patch, kept but not drawn: expected a finite number, found 'q'") !=
            std::string::npos)
            named = true;
    EXPECT_TRUE(named);
    // A patch on one line, from column 3: its columns are counted from the file's.
    const MapReadResult one = readMap("{\n\"classname\" \"worldspawn\"\n  { patchDef2 { x ( 2 3 0 0 0 ) } }\n}\n", "one.map");
    ASSERT_TRUE(one.ok());
    bool placed = false;
    for (const MapWarning& w : one.map->warnings)
        if (w.message.find("one.map:3:21: malformed patch") != std::string::npos) placed = true;
    EXPECT_TRUE(placed);
}
