// Exact grid coordinates in exported .map files (issue #29, part 5): clip and CSG results
// whose planes pass through grid points are written with those (integral) points, sides that
// keep their points keep them bit for bit, and a read -> write -> read round trip of every
// shared and sample map gives back the same planes with no more digits than the input had.
#include "edit/brush_operations.h"
#include "io/map_reader.h"
#include "io/map_writer.h"
#include "map_text.h"

#include <gtest/gtest.h>

#include <cstring>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <sstream>

using namespace shallot;
using shallot::test::pointTokens;

namespace {

// Planes read back from written points match the operation's planes within this (normal
// components and distance). Points written verbatim give back the plane Plane::fromPoints
// computes from them, which differs from a plane computed another way (planeThroughLine,
// a recomputed cap) by rounding only: ulps of the normal and ~1e-12 of the distance at
// 4096. Same bound as brush_operations.cpp's kMapPointPlaneMatch.
constexpr double kReadBackPlaneMatch = 1e-9;

constexpr double kGrid = 16.0;

MapFile worldspawnWith(std::vector<Brush> brushes) {
    MapFile m;
    m.entities.push_back({{{"classname", "worldspawn"}}, std::move(brushes), 1});
    return m;
}

MapFile read(const std::string& text) {
    MapReadResult r = readMap(text, "written.map");
    EXPECT_TRUE(r.ok()) << r.error.format() << "\n" << text.substr(0, 2000);
    return r.ok() ? std::move(*r.map) : MapFile{};
}

bool integral(double v) { return std::round(v) == v; }
bool integral(const Vec3& v) { return integral(v[0]) && integral(v[1]) && integral(v[2]); }
bool allIntegral(const BrushSide& s) { return integral(s.points[0]) && integral(s.points[1]) && integral(s.points[2]); }

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool sameBits(const Vec3& a, const Vec3& b) {
    return sameBits(a[0], b[0]) && sameBits(a[1], b[1]) && sameBits(a[2], b[2]);
}
// Equal as numbers: bit for bit except that -0 and +0 are one value (the writer never
// writes "-0", so a -0 read from a file, or one a cross product makes, comes back as +0).
bool samePlane(const Plane& a, const Plane& b) { return a.normal == b.normal && a.dist == b.dist; }

// The brush written alone and read back.
// Written in `dialect`'s game and brush format (a Quake 3 brushDef side's fields are not a
// Quake side's), read back.
Brush roundTrip(const Brush& b, const MapFile& dialect = {}) {
    MapFile written = worldspawnWith({b});
    written.game = dialect.game;
    written.quake3Brushes = dialect.quake3Brushes;
    written.valve220 = dialect.valve220;
    const MapFile m = read(writeMap(written));
    EXPECT_EQ(m.entities.size(), 1u);
    EXPECT_EQ(m.entities.at(0).brushes.size(), 1u);
    return m.entities.at(0).brushes.at(0);
}

// Every point written for the brush is integral, and the planes read back are the brush's.
void expectWrittenIntegral(const Brush& b, const std::string& what) {
    const Brush back = roundTrip(b);
    ASSERT_EQ(back.sides.size(), b.sides.size()) << what;
    for (size_t i = 0; i < b.sides.size(); ++i) {
        const BrushSide& s = back.sides[i];
        for (const Vec3& p : s.points) EXPECT_TRUE(integral(p)) << what << " side " << i << ": " << p.transpose();
        EXPECT_LE((s.plane.normal - b.sides[i].plane.normal).cwiseAbs().maxCoeff(), kReadBackPlaneMatch) << what;
        EXPECT_LE(std::abs(s.plane.dist - b.sides[i].plane.dist), kReadBackPlaneMatch) << what;
    }
}

Brush gridBox(const Vec3& mins, const Vec3& maxs) {
    std::optional<Brush> b = boxBrush(mins, maxs, "wall");
    EXPECT_TRUE(b);
    return b ? *b : Brush{};
}

} // namespace

// The symptom of the issue: the clip tool with both points on the grid wrote cap points
// like 521.6000000000295 (face vertices where the clip plane crosses the box's edges).
TEST(GridExact, ClipAlongGridLineWritesIntegers) {
    const Brush box = gridBox(Vec3(0, 0, 0), Vec3(128, 128, 64));
    for (int axis = 0; axis < 3; ++axis) {
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        Vec3 a = Vec3::Zero(), b = Vec3::Zero();
        a[u] = -16, a[v] = 0, b[u] = 160, b[v] = 48;
        a[axis] = b[axis] = 32;
        const std::optional<Plane> plane = planeThroughLine(a, b, axis);
        ASSERT_TRUE(plane);
        const ClipResult c = clipBrush(box, *plane);
        ASSERT_TRUE(c.front && c.back) << c.error;
        expectWrittenIntegral(*c.front, "front, axis " + std::to_string(axis));
        expectWrittenIntegral(*c.back, "back, axis " + std::to_string(axis));
    }
}

namespace {

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// Significant digits of a decimal token: its mantissa's digits without the sign, the point,
// leading zeros and trailing zeros ("64" and "64.000" have 2, "0.0625" has 3, "0" has 0).
int significantDigits(std::string token) {
    if (const size_t e = token.find_first_of("eE"); e != std::string::npos) token.resize(e);
    std::string digits;
    for (char c : token)
        if (c >= '0' && c <= '9') digits += c;
    const size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) return 0;
    const size_t last = digits.find_last_not_of('0');
    return int(last - first + 1);
}

std::vector<std::filesystem::path> mapFiles(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(dir))
        for (const auto& entry : std::filesystem::directory_iterator(dir))
            if (entry.path().extension() == ".map") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::string fileText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

// Every shared map (the Quake levels, unit/ and the other games' levels that read) and every
// sample map: read -> write -> read gives the same planes bit for bit and the same points
// (as numbers: a -0 point coordinate comes back as 0, since the writer never writes "-0";
// no plane changes by it), and no written coordinate has more significant digits than the
// input's token for it.
TEST(GridExact, SharedAndSampleMapsRoundTripBitForBit) {
    const std::filesystem::path shared = SHALLOT_SHARED_MAPS;
    std::vector<std::filesystem::path> files;
    for (const auto& dir : {shared, shared / "unit", shared / "games", std::filesystem::path(SHALLOT_SAMPLE_MAPS)})
        for (const auto& f : mapFiles(dir)) files.push_back(f);
    if (files.empty()) GTEST_SKIP() << "no maps found";
    int maps = 0, sides = 0, negativeZeros = 0;
    for (const auto& file : files) {
        SCOPED_TRACE(file.string());
        const std::string input = fileText(file);
        const MapReadResult first = readMap(input, file.filename().string());
        if (!first.ok()) {
            // Some of the other games' levels are refused (map_reader_test); ours must read.
            EXPECT_NE(file.parent_path().filename(), "maps") << first.error.format();
            EXPECT_EQ(file.parent_path().filename(), "games") << first.error.format();
            continue;
        }
        ++maps;
        const std::string output = writeMap(*first.map);
        const MapFile again = read(output);
        const std::vector<std::string> inLines = linesOf(input), outLines = linesOf(output);
        ASSERT_EQ(again.entities.size(), first.map->entities.size());
        for (size_t e = 0; e < again.entities.size(); ++e) {
            ASSERT_EQ(again.entities[e].brushes.size(), first.map->entities[e].brushes.size());
            for (size_t b = 0; b < again.entities[e].brushes.size(); ++b) {
                const Brush& x = first.map->entities[e].brushes[b];
                const Brush& y = again.entities[e].brushes[b];
                ASSERT_EQ(x.sides.size(), y.sides.size());
                for (size_t s = 0; s < x.sides.size(); ++s) {
                    ++sides;
                    const BrushSide& before = x.sides[s];
                    const BrushSide& after = y.sides[s];
                    EXPECT_TRUE(sameBits(before.plane.normal, after.plane.normal) &&
                                sameBits(before.plane.dist, after.plane.dist))
                        << "line " << before.line;
                    EXPECT_EQ(before.points, after.points) << "line " << before.line;
                    for (size_t k = 0; k < 3; ++k)
                        for (int axis = 0; axis < 3; ++axis)
                            if (!sameBits(before.points[k][axis], after.points[k][axis])) ++negativeZeros;
                    const std::vector<std::string> in = pointTokens(inLines.at(size_t(before.line - 1)));
                    const std::vector<std::string> out = pointTokens(outLines.at(size_t(after.line - 1)));
                    ASSERT_EQ(in.size(), 9u) << inLines.at(size_t(before.line - 1));
                    ASSERT_EQ(out.size(), 9u) << outLines.at(size_t(after.line - 1));
                    for (size_t t = 0; t < 9; ++t)
                        EXPECT_LE(significantDigits(out[t]), significantDigits(in[t]))
                            << "line " << before.line << ": " << in[t] << " written as " << out[t];
                }
            }
        }
    }
    std::cout << "  " << maps << " maps, " << sides << " sides; " << negativeZeros
              << " point coordinates were -0 and came back as 0\n";
}

namespace {

// The clip lines of the test: both points on the 16 grid near the brush's centre, in
// several directions, at the brush's centre depth along the view axis.
std::vector<std::pair<Vec3, Vec3>> gridClipLines(const Aabb& box, int axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    const Vec3 centre = ((box.mins + box.maxs) / (2 * kGrid)).array().round().matrix() * kGrid;
    const std::vector<std::pair<int, int>> directions{{1, 0}, {0, 1}, {1, 1}, {1, -1}, {1, 3},
                                                      {3, 1}, {-2, 5}, {7, -3}, {5, 2}, {4, -11}};
    const std::vector<std::pair<int, int>> offsets{{0, 0}, {1, -1}, {-2, 1}};
    std::vector<std::pair<Vec3, Vec3>> lines;
    for (const auto& [du, dv] : directions)
        for (const auto& [ou, ov] : offsets) {
            Vec3 a = centre, b = centre;
            a[u] += ou * kGrid, a[v] += ov * kGrid;
            b[u] = a[u] + du * kGrid, b[v] = a[v] + dv * kGrid;
            lines.emplace_back(a, b);
        }
    return lines;
}

bool sameSide(const BrushSide& a, const BrushSide& b) {
    return sameBits(a.plane.normal, b.plane.normal) && sameBits(a.plane.dist, b.plane.dist);
}

// A part of a clip of `original` along grid points: sides kept from the brush keep their
// points bit for bit, the cap has integral points, and the part written and read back has
// integral points wherever the original's were, with its planes (bit for bit when `exact`:
// every side's points were written verbatim and give the plane they came from).
void expectGridPart(const Brush& original, const Brush& part, bool exact, const std::string& what, const MapFile& dialect) {
    const Brush back = roundTrip(part, dialect);
    ASSERT_EQ(back.sides.size(), part.sides.size()) << what;
    for (size_t i = 0; i < part.sides.size(); ++i) {
        const BrushSide& s = part.sides[i];
        const auto kept = std::find_if(original.sides.begin(), original.sides.end(),
                                       [&](const BrushSide& o) { return sameSide(o, s); });
        if (kept != original.sides.end()) {
            for (size_t k = 0; k < 3; ++k) EXPECT_TRUE(sameBits(s.points[k], kept->points[k])) << what << " side " << i;
            if (allIntegral(*kept)) {
                EXPECT_TRUE(allIntegral(back.sides[i])) << what << " side " << i;
            }
        } else {
            EXPECT_TRUE(allIntegral(s)) << what << " cap " << i << ": " << s.points[0].transpose() << " / "
                                        << s.points[1].transpose() << " / " << s.points[2].transpose();
            EXPECT_TRUE(allIntegral(back.sides[i])) << what << " cap " << i;
        }
        const Plane& p = back.sides[i].plane;
        if (exact) {
            EXPECT_TRUE(samePlane(p, s.plane)) << what << " side " << i;
        } else {
            EXPECT_LE((p.normal - s.plane.normal).cwiseAbs().maxCoeff(), kReadBackPlaneMatch) << what << " side " << i;
            EXPECT_LE(std::abs(p.dist - s.plane.dist), kReadBackPlaneMatch) << what << " side " << i;
        }
    }
}

} // namespace

// Every brush of the sample maps clipped along grid lines in each view, as the clip tool
// does it (clipBrush by planeThroughLine) and with the clip points carried (clipBrushThrough
// by pointsThroughLine): every part writes integral points wherever the brush had them.
TEST(GridExact, SampleBrushesClippedAlongGridLinesWriteIntegers) {
    const std::vector<std::filesystem::path> files = mapFiles(SHALLOT_SAMPLE_MAPS);
    if (files.empty()) GTEST_SKIP() << "no sample maps";
    int parts = 0;
    for (const auto& file : files) {
        const MapReadResult r = readMapFile(file.string());
        ASSERT_TRUE(r.ok()) << r.error.format();
        for (const MapEntity& entity : r.map->entities)
            for (const Brush& brush : entity.brushes) {
                const Aabb box = bounds(brush);
                if (box.empty()) continue;
                for (int axis = 0; axis < 3; ++axis)
                    for (const auto& [a, b] : gridClipLines(box, axis)) {
                        const std::string what = file.filename().string() + ":" + std::to_string(brush.source.line) +
                                                 " axis " + std::to_string(axis) + " line (" +
                                                 std::to_string(int(a[0])) + " " + std::to_string(int(a[1])) + " " +
                                                 std::to_string(int(a[2])) + ") -> (" + std::to_string(int(b[0])) +
                                                 " " + std::to_string(int(b[1])) + " " + std::to_string(int(b[2])) + ")";
                        const std::optional<Plane> plane = planeThroughLine(a, b, axis);
                        const std::optional<std::array<Vec3, 3>> points = pointsThroughLine(a, b, axis);
                        ASSERT_TRUE(plane && points) << what;
                        const std::optional<Plane> fromPoints = planeFromPoints((*points)[0], (*points)[1], (*points)[2]);
                        ASSERT_TRUE(fromPoints);
                        EXPECT_TRUE(samePlane(*fromPoints, *plane)) << what;
                        for (const Vec3& p : *points) EXPECT_TRUE(integral(p)) << what;

                        const ClipResult tool = clipBrush(brush, *plane);
                        const ClipResult through = clipBrushThrough(brush, *points);
                        ASSERT_TRUE(tool.error.empty() && through.error.empty()) << what;
                        EXPECT_EQ(bool(tool.front), bool(through.front)) << what;
                        EXPECT_EQ(bool(tool.back), bool(through.back)) << what;
                        for (const auto& [part, exact, name] :
                             {std::tuple{&tool.front, false, " clip front"}, std::tuple{&tool.back, false, " clip back"},
                              std::tuple{&through.front, true, " through front"},
                              std::tuple{&through.back, true, " through back"}}) {
                            if (!*part) continue;
                            ++parts;
                            expectGridPart(brush, **part, exact, what + name, *r.map);
                        }
                    }
            }
    }
    EXPECT_GT(parts, 0);
    std::cout << "  " << parts << " parts written\n";
}

// CSG on the grid: subtracting grid boxes (and a brush clipped along grid points) from grid
// boxes, hollowing, resizing on the grid, rotating and mirroring about grid points all write
// integral points; transforms move the points exactly.
TEST(GridExact, CsgAndTransformsOfGridBrushesWriteIntegers) {
    const Brush from = gridBox(Vec3(0, 0, 0), Vec3(128, 96, 64));
    const std::optional<std::array<Vec3, 3>> diagonal = pointsThroughLine(Vec3(-16, 0, 0), Vec3(160, 48, 0), 2);
    ASSERT_TRUE(diagonal);
    const ClipResult wedge = clipBrushThrough(from, *diagonal);
    ASSERT_TRUE(wedge.front && wedge.back);
    const ClipResult slanted = clipBrush(gridBox(Vec3(32, -32, -16), Vec3(80, 48, 96)),
                                         *planeThroughLine(Vec3(32, 0, 0), Vec3(64, 64, 0), 1));
    ASSERT_TRUE(slanted.back);

    const std::vector<Brush> cutters{gridBox(Vec3(16, 16, -16), Vec3(48, 48, 80)),  // a hole through
                                     gridBox(Vec3(-32, 32, 16), Vec3(64, 64, 48)),  // a notch in a side
                                     gridBox(Vec3(96, 80, 48), Vec3(160, 160, 96)), // a corner
                                     *wedge.back, *slanted.back};
    for (size_t c = 0; c < cutters.size(); ++c) {
        const std::vector<Brush> pieces = subtractBrush(from, cutters[c]);
        EXPECT_FALSE(pieces.empty()) << "cutter " << c;
        for (size_t i = 0; i < pieces.size(); ++i) {
            expectWrittenIntegral(pieces[i], "cutter " + std::to_string(c) + " piece " + std::to_string(i));
            for (const BrushSide& s : pieces[i].sides) EXPECT_TRUE(allIntegral(s)) << "cutter " << c;
        }
    }
    // A clipped brush minus a box: its cap keeps the clip points.
    for (const Brush& piece : subtractBrush(*wedge.front, cutters[0])) expectWrittenIntegral(piece, "wedge piece");

    for (const Brush& wall : hollowBrush(from, 16)) expectWrittenIntegral(wall, "wall");

    const std::optional<Brush> resized = withBounds(*wedge.back, {Vec3(-64, 0, 0), Vec3(192, 192, 128)});
    ASSERT_TRUE(resized);
    expectWrittenIntegral(*resized, "resized wedge");

    for (const Brush& b : {*wedge.front, *wedge.back, *slanted.back}) {
        const Brush moved = translated(b, Vec3(16, -32, 48));
        const Brush turned = rotated90(b, 2, Vec3(16, 32, 0), false);
        const Brush turnedBack = rotated90(turned, 2, Vec3(16, 32, 0), true);
        const Brush mirrored = flipped(b, 0, Vec3(24, 0, 0)); // a half-grid pivot: still integral
        for (const Brush* t : {&moved, &turned, &mirrored}) {
            expectWrittenIntegral(*t, "transformed");
            for (const BrushSide& s : t->sides) EXPECT_TRUE(allIntegral(s));
        }
        ASSERT_EQ(turnedBack.sides.size(), b.sides.size());
        for (size_t i = 0; i < b.sides.size(); ++i)
            for (size_t k = 0; k < 3; ++k) EXPECT_TRUE(sameBits(turnedBack.sides[i].points[k], b.sides[i].points[k]));
    }
}

// integralPointsOn: planes through integral points give integral points that give back the
// plane; planes that pass through none give nothing.
TEST(GridExact, IntegralPointsOnPlanes) {
    const Vec3 near(100, -40, 7);
    for (const auto& [a, b, c] : {std::tuple{Vec3(0, 0, 0), Vec3(3, 1, 0), Vec3(0, 0, 1)},
                                  std::tuple{Vec3(16, -32, 48), Vec3(96, 16, 0), Vec3(-48, 64, 128)},
                                  std::tuple{Vec3(-65520, 3, 0), Vec3(65535, -65531, 0), Vec3(-65520, 3, 64)},
                                  std::tuple{Vec3(521, -7, 3), Vec3(17, 99, -4), Vec3(-100, 3, 20)},
                                  std::tuple{Vec3(0, 0, 64), Vec3(1, 0, 64), Vec3(0, 1, 64)}}) {
        const std::optional<Plane> plane = Plane::fromPoints(a, b, c);
        ASSERT_TRUE(plane);
        const auto points = integralPointsOn(*plane, near, 64, kReadBackPlaneMatch);
        ASSERT_TRUE(points) << plane->normal.transpose() << " " << plane->dist;
        const std::optional<Plane> back = Plane::fromPoints((*points)[0], (*points)[1], (*points)[2]);
        ASSERT_TRUE(back);
        EXPECT_LE((back->normal - plane->normal).cwiseAbs().maxCoeff(), kReadBackPlaneMatch);
        EXPECT_LE(std::abs(back->dist - plane->dist), kReadBackPlaneMatch);
        for (const Vec3& p : *points) EXPECT_TRUE(integral(p)) << p.transpose();
    }
    // Between two lattice planes (x + 3y = 0.5), and turned by an irrational angle.
    EXPECT_FALSE(integralPointsOn({Vec3(1, 3, 0).normalized(), 0.5 / std::sqrt(10.0)}, near, 64, kReadBackPlaneMatch));
    EXPECT_FALSE(integralPointsOn({Vec3(1, std::sqrt(2.0), 0).normalized(), 3}, near, 64, kReadBackPlaneMatch));
    EXPECT_FALSE(integralPointsOn({Vec3(NAN, 0, 1), 3}, near, 64, kReadBackPlaneMatch));
}
