// The surfaces between regions of leaves (what the editor draws of the leaf-cell and
// reachability overlays), checked against brute force: points sampled on every face of a
// region's cells, stepped across the face and located in the tree, must lie on a boundary
// piece exactly when the leaf they land in is in another region.
#include "compile/compiler.h"
#include "geometry/tolerances.h"
#include "portal/leaf_cells.h"
#include "portal/region_boundary.h"
#include "random_world.h"

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

// Samples nearer than this to an edge of a face or a piece are ambiguous (a split keeps
// a vertex within kOnPlaneEpsilon of a plane where it is, which can move a piece's edge
// by that much): skipped.
constexpr double kEdgeMargin = 10 * kOnPlaneEpsilon;

// A plane whose normal is this close to the face's is the face's own plane (a cell face
// carries its tree plane's normal exactly, or its flip).
constexpr double kSamePlaneCosine = 1e-12;

// The leaf across a face at a point p on it: p walked down the tree, going to the side
// `towards` points to at a plane it lies on (within kOnPlaneEpsilon). A point stepped
// across the face instead would land past the leaves that meet the face in thin wedges
// (planes at a small angle to it), and random worlds have many. -1 when p is within
// kOnPlaneEpsilon of a plane crossing the face: the face's pieces are cut there by the
// plane's exact side, the point by the tolerance, and that strip is wide where the plane
// meets the face at a small angle.
int32_t leafAcross(const BspTree& tree, const Vec3& p, const Vec3& towards) {
    ChildRef r = tree.root;
    while (!isLeaf(r)) {
        const BspNode& n = tree.nodes[size_t(r)];
        const Plane& plane = tree.planes[size_t(n.plane)];
        const double d = plane.signedDistance(p);
        const bool on = std::abs(d) <= kOnPlaneEpsilon;
        if (on && std::abs(plane.normal.dot(towards)) < 1 - kSamePlaneCosine) return -1;
        r = (on ? plane.normal.dot(towards) > 0 : d > 0) ? n.front : n.back;
    }
    return leafIndex(r);
}

// Signed distance from p (on the polygon's plane) to the polygon's nearest edge: positive
// inside. Orientation comes from the polygon's own winding, so either winding works.
double insideDistance(const Polygon& polygon, const Vec3& p) {
    const std::vector<Vec3>& v = polygon.vertices;
    Vec3 normal = Vec3::Zero();
    for (size_t i = 0; i < v.size(); ++i) normal += v[i].cross(v[(i + 1) % v.size()]);
    normal.normalize();
    double nearest = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < v.size(); ++i) {
        const Vec3 edge = v[(i + 1) % v.size()] - v[i];
        nearest = std::min(nearest, edge.cross(p - v[i]).dot(normal) / edge.norm());
    }
    return nearest;
}

struct Tally {
    int boundary = 0, inner = 0;
};

void expectBoundaryMatchesProbes(Rng& rng, const BspTree& tree, const LeafCellList& cells,
                                 const std::vector<int32_t>& region, Tally& tally) {
    const std::vector<BoundaryPiece> pieces = regionBoundary(tree, cells, region, 2);
    std::vector<std::vector<const BoundaryPiece*>> byLeaf(cells.size());
    for (const BoundaryPiece& p : pieces) {
        ASSERT_GE(p.leaf, 0);
        ASSERT_GE(region[size_t(p.leaf)], 0) << "a piece of a leaf in no region";
        if (p.neighbour >= 0) {
            EXPECT_NE(region[size_t(p.neighbour)], region[size_t(p.leaf)]);
        }
        byLeaf[size_t(p.leaf)].push_back(&p);
    }
    for (size_t leaf = 0; leaf < cells.size(); ++leaf) {
        if (region[leaf] < 0 || cells[leaf].empty()) continue;
        for (const ConvexFace& face : cells[leaf].faces) {
            if (face.tag == kWorldBoxFace) continue;
            for (int sample = 0; sample < 6; ++sample) {
                const Vec3 p = randomPointIn(rng, face.polygon);
                if (insideDistance(face.polygon, p) < kEdgeMargin) continue;
                const int32_t across = leafAcross(tree, p, face.plane.normal);
                if (across < 0) continue;
                ASSERT_NE(across, int32_t(leaf));
                bool covered = false, ambiguous = false;
                for (const BoundaryPiece* piece : byLeaf[leaf]) {
                    if (piece->normal.dot(face.plane.normal) < 1 - 1e-9) continue;
                    if (std::abs(face.plane.signedDistance(piece->polygon.centroid())) > kOnPlaneEpsilon) continue;
                    const double d = insideDistance(piece->polygon, p);
                    if (std::abs(d) < kEdgeMargin) ambiguous = true;
                    if (d > 0) covered = true;
                }
                if (ambiguous) continue;
                const int32_t other = size_t(across) < region.size() ? region[size_t(across)] : -1;
                const bool expected = other != region[leaf];
                EXPECT_EQ(covered, expected) << "leaf " << leaf << " (region " << region[leaf] << "), across leaf "
                                             << across << " (region " << other << ")";
                (expected ? tally.boundary : tally.inner)++;
            }
        }
    }
}

} // namespace

TEST(RegionBoundary, MatchesProbesAcrossEveryFaceOnRandomWorlds) {
    Rng rng(23);
    Tally tally;
    for (int round = 0; round < 12; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const World w = randomWorld(rng, 16, 90, 2);
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty()) << r.error;
        const BspTree& t = r.onion;
        const LeafCellList cells = leafCells(t);
        // The overlays' kinds of region: empty for a pose; leaves grouped by their bitset;
        // and arbitrary labels with holes.
        std::vector<int32_t> empty(t.leafCount()), bitset(t.leafCount()), labels(t.leafCount());
        for (size_t leaf = 0; leaf < t.leafCount(); ++leaf) {
            empty[leaf] = (t.leafSolid[leaf] >> 1) & 1u ? -1 : 0;
            bitset[leaf] = int32_t(t.leafSolid[leaf]);
            labels[leaf] = int32_t(rng() % 4) - 1;
        }
        for (const auto* region : {&empty, &bitset, &labels}) {
            expectBoundaryMatchesProbes(rng, t, cells, *region, tally);
            if (HasFatalFailure()) return;
        }
    }
    // The probes must have tested both answers many times.
    EXPECT_GT(tally.boundary, 1000);
    EXPECT_GT(tally.inner, 1000);
}

TEST(RegionBoundary, OneRegionCoveringEveryLeafHasOnlyTheWorldBox) {
    Rng rng(5);
    const CompileResult r = compileWorld(randomWorld(rng, 12, 90, 1));
    ASSERT_TRUE(r.error.empty()) << r.error;
    const LeafCellList cells = leafCells(r.onion);
    const std::vector<BoundaryPiece> pieces = regionBoundary(r.onion, cells, std::vector<int32_t>(cells.size(), 7), 2);
    double area = 0;
    for (const BoundaryPiece& p : pieces) {
        EXPECT_EQ(p.neighbour, -1);
        area += p.polygon.area();
    }
    const Vec3 size = r.onion.bounds.maxs - r.onion.bounds.mins;
    EXPECT_NEAR(area, 2 * (size.x() * size.y() + size.y() * size.z() + size.z() * size.x()), 1e-6 * area);
}

TEST(RegionBoundary, OnlyLeavesGivesThosePiecesOfTheWholeBoundary) {
    Rng rng(31);
    const CompileResult r = compileWorld(randomWorld(rng, 30, 90, 2));
    ASSERT_TRUE(r.error.empty()) << r.error;
    const LeafCellList cells = leafCells(r.onion);
    std::vector<int32_t> region(cells.size());
    std::vector<bool> only(cells.size());
    for (size_t leaf = 0; leaf < cells.size(); ++leaf) {
        region[leaf] = int32_t(r.onion.leafSolid[leaf] & 3u) - 1;
        only[leaf] = rng() % 3 == 0;
    }
    const std::vector<BoundaryPiece> all = regionBoundary(r.onion, cells, region, 2);
    const std::vector<BoundaryPiece> some = regionBoundary(r.onion, cells, region, 2, &only);
    std::vector<const BoundaryPiece*> expected;
    for (const BoundaryPiece& p : all)
        if (only[size_t(p.leaf)]) expected.push_back(&p);
    ASSERT_EQ(some.size(), expected.size());
    ASSERT_GT(some.size(), 20u);
    ASSERT_LT(some.size(), all.size());
    for (size_t i = 0; i < some.size(); ++i) {
        EXPECT_EQ(some[i].leaf, expected[i]->leaf);
        EXPECT_EQ(some[i].neighbour, expected[i]->neighbour);
        EXPECT_EQ(some[i].polygon.vertices, expected[i]->polygon.vertices);
    }
}
