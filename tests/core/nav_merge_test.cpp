// Merging walkable polygons (core/nav/merge_polygons.h): hand-made meshes whose merge is
// known (and does not depend on the order of their polygons and links), and random worlds
// and id_e1m1 checked against the tree's own walkable leaf polygons: the merged polygons
// are convex, cover exactly those polygons, and each lies wholly inside one of them.
#include "nav_helpers.h"
#include "test_maps.h"

#include "geometry/polygon.h"
#include "nav/merge_polygons.h"

#include <algorithm>
#include <filesystem>
#include <random>

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

// A square of side 16 at grid cell (x, y), on plane 0, counter-clockwise from above.
NavPolygon square(int x, int y, PlaneId plane = 0) {
    NavPolygon p;
    const double a = 16.0 * x, b = 16.0 * y;
    p.vertices = {{a, b, 0}, {a + 16, b, 0}, {a + 16, b + 16, 0}, {a, b + 16, 0}};
    p.plane = plane;
    for (const Vec3& v : p.vertices) p.bounds.add(v);
    p.area = 256.0;
    return p;
}

// Walk links both ways between every two squares sharing an edge, and a step link from
// the first square to the last (renumbered by the merge, never dropped).
void linkSquares(NavMesh& mesh) {
    const size_t n = mesh.polygons.size();
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) {
            if (i == j) continue;
            const auto& a = mesh.polygons[i].vertices;
            const auto& b = mesh.polygons[j].vertices;
            for (size_t e = 0; e < 4; ++e)
                for (size_t f = 0; f < 4; ++f)
                    if ((a[e] - b[(f + 1) % 4]).norm() < 1e-9 && (a[(e + 1) % 4] - b[f]).norm() < 1e-9)
                        mesh.links.push_back({int32_t(i), int32_t(j), NavLinkKind::Walk, a[e], a[(e + 1) % 4]});
        }
    mesh.links.push_back({0, int32_t(n - 1), NavLinkKind::StepUp, mesh.polygons[0].vertices[0], mesh.polygons[n - 1].vertices[2]});
}

NavMesh merged(std::vector<NavPolygon> polygons, unsigned shuffle) {
    NavMesh mesh;
    std::mt19937 rng(shuffle);
    if (shuffle) std::shuffle(polygons.begin(), polygons.end(), rng);
    mesh.polygons = std::move(polygons);
    linkSquares(mesh);
    if (shuffle) std::shuffle(mesh.links.begin(), mesh.links.end(), rng);
    mergeCoplanarPolygons(mesh);
    return mesh;
}

std::vector<std::vector<Vec3>> outlines(const NavMesh& mesh) {
    std::vector<std::vector<Vec3>> out;
    for (const NavPolygon& p : mesh.polygons) out.push_back(p.vertices);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](const Vec3& x, const Vec3& y) {
            return std::tie(x.x(), x.y(), x.z()) < std::tie(y.x(), y.y(), y.z());
        });
    });
    return out;
}

// Whether a convex polygon (counter-clockwise from above) contains p seen from above,
// within `margin`.
bool insideXY(const std::vector<Vec3>& polygon, const Vec3& p, double margin) {
    for (size_t i = 0; i < polygon.size(); ++i) {
        const Vec3& a = polygon[i];
        const Vec3& b = polygon[(i + 1) % polygon.size()];
        const Vec3 e = b - a;
        const double length = std::hypot(e.x(), e.y());
        if ((e.x() * (p.y() - a.y()) - e.y() * (p.x() - a.x())) / length < -margin) return false;
    }
    return true;
}

// Whether a polygon turns left or goes straight on at every vertex, seen from above.
bool convexXY(const std::vector<Vec3>& polygon) {
    for (size_t i = 0; i < polygon.size(); ++i) {
        const Vec3& a = polygon[i];
        const Vec3& b = polygon[(i + 1) % polygon.size()];
        const Vec3& c = polygon[(i + 2) % polygon.size()];
        // Straight on through a vertex is allowed (a leaf polygon's neighbour's edge ends there).
        const double turn = (b.x() - a.x()) * (c.y() - b.y()) - (b.y() - a.y()) * (c.x() - b.x());
        if (turn < -1e-9 * std::hypot(b.x() - a.x(), b.y() - a.y()) * std::hypot(c.x() - b.x(), c.y() - b.y())) return false;
    }
    return true;
}

// The tree's walkable leaf polygons of the mesh's pose that the mesh is made of.
std::vector<std::vector<Vec3>> leafPolygons(const BspTree& tree, const NavMesh& mesh) {
    std::vector<std::vector<Vec3>> out;
    for (uint32_t i = 0; i < tree.polygons.size(); ++i) {
        const LeafPolygon& lp = tree.polygons[i];
        if (lp.pose != mesh.pose || tree.planes[size_t(lp.plane)].normal.z() < mesh.settings.walkableNormalZ) continue;
        const auto span = tree.polygons.vertices(i);
        std::vector<Vec3> v(span.begin(), span.end());
        if (mesh.polygonAt(polygonCentroid(v)) >= 0) out.push_back(std::move(v));
    }
    return out;
}

// The merged mesh against the leaf polygons it was made of: convex polygons, the same
// area, every leaf polygon inside the one its centroid lies on; the walk links between
// merged polygons lie on both polygons' outlines.
void expectMergedFromLeaves(const BspTree& tree, const NavMesh& mesh) {
    const auto leaves = leafPolygons(tree, mesh);
    ASSERT_FALSE(leaves.empty());
    double leafArea = 0.0, mergedArea = 0.0;
    for (const auto& v : leaves) leafArea += polygonArea(v);
    for (const NavPolygon& p : mesh.polygons) {
        EXPECT_TRUE(convexXY(p.vertices)) << "polygon at " << p.vertices[0].transpose();
        mergedArea += polygonArea(p.vertices);
    }
    EXPECT_NEAR(mergedArea, leafArea, 1e-6 * leafArea);
    EXPECT_NEAR(mesh.area, leafArea, 1e-6 * leafArea);
    for (const auto& v : leaves) {
        const int32_t at = mesh.polygonAt(polygonCentroid(v));
        ASSERT_GE(at, 0);
        for (const Vec3& x : v) EXPECT_TRUE(insideXY(mesh.polygons[size_t(at)].vertices, x, kNavEdgeDistance)) << x.transpose();
    }
    for (const NavLink& l : mesh.links) {
        if (l.kind != NavLinkKind::Walk) continue;
        EXPECT_NE(l.from, l.to);
        for (int32_t p : {l.from, l.to})
            for (const Vec3& x : {l.start, l.end})
                EXPECT_TRUE(insideXY(mesh.polygons[size_t(p)].vertices, x, kNavEdgeDistance)) << x.transpose();
    }
}

} // namespace

TEST(NavMerge, FourSquaresBecomeOneWhateverTheirOrder) {
    const std::vector<NavPolygon> squares{square(0, 0), square(1, 0), square(0, 1), square(1, 1)};
    const NavMesh first = merged(squares, 0);
    ASSERT_EQ(first.polygons.size(), 1u);
    EXPECT_EQ(first.polygons[0].vertices, (std::vector<Vec3>{{0, 0, 0}, {32, 0, 0}, {32, 32, 0}, {0, 32, 0}}));
    EXPECT_DOUBLE_EQ(first.polygons[0].area, 1024.0);
    ASSERT_EQ(first.links.size(), 1u); // the walks inside it are gone; the step stays
    EXPECT_EQ(first.links[0].kind, NavLinkKind::StepUp);
    for (unsigned shuffle = 1; shuffle < 20; ++shuffle) EXPECT_EQ(outlines(merged(squares, shuffle)), outlines(first));
}

TEST(NavMerge, AnLStaysTwoConvexPolygonsJoinedByOneWalk) {
    // Three squares in an L: no two-way merge of all three is convex.
    const std::vector<NavPolygon> squares{square(0, 0), square(1, 0), square(0, 1)};
    const NavMesh first = merged(squares, 0);
    ASSERT_EQ(first.polygons.size(), 2u);
    for (const NavPolygon& p : first.polygons) EXPECT_TRUE(convexXY(p.vertices));
    EXPECT_EQ(first.linkCount(NavLinkKind::Walk), 2u); // one each way
    for (unsigned shuffle = 1; shuffle < 20; ++shuffle) EXPECT_EQ(outlines(merged(squares, shuffle)), outlines(first));
}

TEST(NavMerge, WalksAlongOneEdgeJoinAndOtherPlanesStayApart) {
    // A row of two squares on plane 0 beside a row of two on plane 1: each row merges, and
    // the two walks between the rows (one per square) become one along the whole edge.
    const std::vector<NavPolygon> squares{square(0, 0, 0), square(1, 0, 0), square(0, 1, 1), square(1, 1, 1)};
    const NavMesh mesh = merged(squares, 0);
    ASSERT_EQ(mesh.polygons.size(), 2u);
    ASSERT_EQ(mesh.linkCount(NavLinkKind::Walk), 2u);
    for (const NavLink& l : mesh.links) {
        if (l.kind == NavLinkKind::Walk) {
            EXPECT_NEAR((l.end - l.start).norm(), 32.0, 1e-9);
        }
    }
}

TEST(NavMerge, RandomWorldsMergeIntoConvexPolygonsCoveringTheLeafPolygons) {
    Rng rng(61);
    size_t leaves = 0, polygons = 0;
    for (int round = 0; round < 6; ++round) {
        const std::vector<Brush> inside = randomRoomBrushes(rng);
        const NavLevel l = compiledNavLevel(navRoom(inside));
        const NavMesh mesh = buildNavMesh(l.result.onion, kNavPlayer);
        expectMergedFromLeaves(l.result.onion, mesh);
        leaves += leafPolygons(l.result.onion, mesh).size();
        polygons += mesh.polygons.size();
    }
    EXPECT_LT(polygons, leaves);
    std::printf("random worlds: %zu leaf polygons merged into %zu\n", leaves, polygons);
}

TEST(NavMerge, E1m1HasAQuarterOfItsLeafPolygons) {
    const std::string path = SHALLOT_SHARED_MAPS "/id_e1m1.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not there";
    const NavLevel l = compiledNavLevel(loadMap(path));
    const NavMesh mesh = buildNavMesh(l.result.onion, kNavPlayer);
    expectMergedFromLeaves(l.result.onion, mesh);
    const size_t leaves = leafPolygons(l.result.onion, mesh).size();
    EXPECT_LT(mesh.polygons.size() * 3, leaves); // 681 of 2,799 when written
    std::printf("id_e1m1 player: %zu leaf polygons merged into %zu\n", leaves, mesh.polygons.size());
}
