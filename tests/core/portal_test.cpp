// Portals, per-pose reachability and leaks: invariants on random worlds and the shared
// Quake maps, and the sample worlds in maps/.
#include "compile/compiler.h"
#include "geometry/tolerances.h"
#include "portal/leaf_cells.h"
#include "portal/portal_generation.h"
#include "portal/reachability.h"
#include "random_world.h"
#include "test_maps.h"
#include "test_scale.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <iostream>
#include <limits>
#include <set>

using namespace shallot;
using namespace shallot::test;

namespace {

// Portal vertices come from clipping with kOnPlaneEpsilon, which keeps a vertex within
// that distance of a plane where it is, so a vertex may sit that far outside a cell (the
// shared maps come to 0.98 of it).
constexpr double kVertexTolerance = 2 * kOnPlaneEpsilon;

// The faces and the portals of a leaf are cut into pieces in different orders (from the
// root, from the separating node), and a piece within kOnPlaneEpsilon of a plane goes
// whole to one side: each decomposition can move a strip up to twice that wide along a
// piece's edge to the other side. So their areas agree within this width times the
// pieces' perimeters, plus kMinPolygonArea per piece dropped as degenerate.
constexpr double kSliverWidth = 4 * kOnPlaneEpsilon;

// That strip is kOnPlaneEpsilon / sin(angle) wide where a face is cut by a plane at a
// small angle to it, which happens around cells too thin, too flatly creased or too
// sharply wedged (two faces meeting at a small angle, a thin slab's edge) for the
// epsilon: the area check leaves those cells out (the shared maps have a few hundred,
// where brushes with non-integer points meet almost flush).
constexpr double kThinCell = 10 * kOnPlaneEpsilon; // LeafInfo::clearance below this
constexpr double kFlatCrease = 1e-3;               // radians between two same-facing faces
uint64_t allPoses(const BspTree& t) { return t.poses.size() >= 64 ? ~uint64_t(0) : (uint64_t(1) << t.poses.size()) - 1; }

double perimeter(std::span<const Vec3> v) {
    double sum = 0.0;
    for (size_t i = 0; i < v.size(); ++i) sum += (v[(i + 1) % v.size()] - v[i]).norm();
    return sum;
}

// The pieces of a polygon lying on a leaf's boundary that fall in the leaves on the side
// `towards` points to, found from the root (written apart from pushPolygon on purpose).
void piecesAcross(const BspTree& t, ChildRef r, const Polygon& polygon, const Vec3& towards,
                  std::vector<std::pair<int32_t, Polygon>>& out) {
    if (isLeaf(r)) {
        out.emplace_back(leafIndex(r), polygon);
        return;
    }
    const BspNode& n = t.nodes[size_t(r)];
    const Plane& plane = t.planes[size_t(n.plane)];
    const Side side = classify(polygon, plane, kOnPlaneEpsilon);
    if (side == Side::On) return piecesAcross(t, plane.normal.dot(towards) > 0 ? n.front : n.back, polygon, towards, out);
    const SplitPolygon s = split(polygon, plane, kOnPlaneEpsilon);
    if (side != Side::Back && !s.front.empty()) piecesAcross(t, n.front, s.front, towards, out);
    if (side != Side::Front && !s.back.empty()) piecesAcross(t, n.back, s.back, towards, out);
}

bool shareAVertex(const Polygon& a, const Polygon& b) {
    for (const Vec3& u : a.vertices)
        for (const Vec3& v : b.vertices)
            if ((u - v).norm() < kVertexTolerance) return true;
    return false;
}

bool wellConditioned(const BspTree& t, const ConvexPolyhedron& cell, size_t leaf) {
    if (t.leaves[leaf].clearance < kThinCell) return false;
    for (size_t i = 0; i < cell.faces.size(); ++i)
        for (size_t j = i + 1; j < cell.faces.size(); ++j) {
            const ConvexFace &f = cell.faces[i], &g = cell.faces[j];
            const Vec3 &a = f.plane.normal, &b = g.plane.normal;
            if (a.cross(b).norm() >= std::sin(kFlatCrease)) continue;
            if (a.dot(b) > 0) return false; // a flat crease
            if (shareAVertex(f.polygon, g.polygon)) return false; // a sharp wedge
        }
    return true;
}

// Does the plane, not one of the cell's faces, come within kVertexTolerance of one of them
// at a flat angle? The strip where a face and a portal on such a plane can disagree is
// kOnPlaneEpsilon / sin(angle) wide: wider than the cell where two nearly coplanar planes
// of different brushes (terrain built from non-integer points) wedge a sliver between them.
bool crossesAFaceFlatly(const ConvexPolyhedron& cell, PlaneId plane, const Plane& p) {
    for (const ConvexFace& f : cell.faces) {
        if (f.tag == kWorldBoxFace || (f.tag >> 1) == (plane >> 1)) continue;
        if (f.plane.normal.cross(p.normal).norm() >= std::sin(kFlatCrease)) continue;
        double nearest = std::numeric_limits<double>::infinity(), farthest = -nearest;
        for (const Vec3& v : f.polygon.vertices) {
            const double d = p.signedDistance(v);
            nearest = std::min(nearest, d);
            farthest = std::max(farthest, d);
        }
        if (nearest <= kVertexTolerance && farthest >= -kVertexTolerance) return true; // it comes that close
    }
    return false;
}

// For every well-conditioned leaf and every pose in which it is empty: the area of its
// cell's faces whose other side is empty in that pose equals the area of its portals
// open in that pose (both counting only well-conditioned neighbours; world-box faces
// have no other side). That is, its portals cover exactly its non-solid faces, however
// the faces and portals are cut into pieces.
void expectPortalsCoverOpenFaces(const BspTree& t, const LeafCellList& cells) {
    const size_t poses = t.poses.size();
    std::vector<bool> checked(t.leaves.size());
    size_t left = 0;
    for (size_t leaf = 0; leaf < t.leaves.size(); ++leaf) checked[leaf] = wellConditioned(t, cells[leaf], leaf);
    for (const Portal& p : t.portals)
        for (int32_t leaf : {p.front, p.back})
            if (crossesAFaceFlatly(cells[size_t(leaf)], p.plane, t.planes[size_t(p.plane)])) checked[size_t(leaf)] = false;
    for (size_t leaf = 0; leaf < t.leaves.size(); ++leaf) left += !checked[leaf];
    EXPECT_LE(left, t.leaves.size() / 20) << "too many ill-conditioned cells";
    std::vector<std::vector<double>> portalArea(t.leaves.size(), std::vector<double>(poses, 0.0));
    std::vector<double> edges(t.leaves.size(), 0.0);
    std::vector<size_t> pieces(t.leaves.size(), 0);
    for (const Portal& p : t.portals) {
        if (!checked[size_t(p.front)] || !checked[size_t(p.back)]) continue;
        for (int32_t leaf : {p.front, p.back}) {
            edges[size_t(leaf)] += perimeter(t.portals.vertices(p));
            ++pieces[size_t(leaf)];
            for (size_t k = 0; k < poses; ++k)
                if ((p.poses >> k) & 1u) portalArea[size_t(leaf)][k] += polygonArea(t.portals.vertices(p));
        }
    }
    for (size_t leaf = 0; leaf < t.leaves.size(); ++leaf) {
        if (!checked[leaf]) continue;
        std::vector<double> faceArea(poses, 0.0);
        for (const ConvexFace& f : cells[leaf].faces) {
            if (f.tag == kWorldBoxFace) continue;
            std::vector<std::pair<int32_t, Polygon>> across;
            piecesAcross(t, t.root, f.polygon, f.plane.normal, across);
            for (const auto& [other, piece] : across) {
                ASSERT_NE(size_t(other), leaf) << "a face of leaf " << leaf << " leads back into it";
                if (!checked[size_t(other)]) continue;
                edges[leaf] += perimeter(piece.vertices);
                ++pieces[leaf];
                const uint64_t open = ~(t.leafSolid[leaf] | t.leafSolid[size_t(other)]) & allPoses(t);
                for (size_t k = 0; k < poses; ++k)
                    if ((open >> k) & 1u) faceArea[k] += piece.area();
            }
        }
        const double tolerance = kSliverWidth * edges[leaf] + kMinPolygonArea * double(pieces[leaf]);
        for (size_t k = 0; k < poses; ++k)
            ASSERT_NEAR(faceArea[k], portalArea[leaf][k], tolerance) << "leaf " << leaf << " pose " << k;
    }
}

// Every portal lies on a node's split plane and within both its leaves' cells, its front
// leaf in front; its poses are exactly those where both leaves are empty; a leaf pair has
// at most one portal; and the portals cover the leaves' open faces.
void expectPortalInvariants(const BspTree& t) {
    const LeafCellList cells = leafCells(t);
    ASSERT_EQ(cells.size(), t.leaves.size());
    for (size_t i = 0; i < cells.size(); ++i) {
        // The descent reproduces the builder's cells: same volumes.
        ASSERT_NEAR(cells[i].volume(), t.leaves[i].volume, 1e-9 * std::max(1.0, t.leaves[i].volume)) << "leaf " << i;
    }
    std::set<PlaneId> nodePlanes;
    for (const BspNode& n : t.nodes) nodePlanes.insert(n.plane);
    std::set<std::pair<int32_t, int32_t>> pairs;
    for (size_t i = 0; i < t.portals.size(); ++i) {
        const Portal& p = t.portals[i];
        SCOPED_TRACE("portal " + std::to_string(i));
        ASSERT_TRUE(nodePlanes.count(p.plane));
        ASSERT_NE(p.front, p.back);
        ASSERT_TRUE(pairs.insert(std::minmax(p.front, p.back)).second) << "two portals join the same leaves";
        ASSERT_EQ(p.poses, ~(t.leafSolid[size_t(p.front)] | t.leafSolid[size_t(p.back)]) & allPoses(t));
        ASSERT_NE(p.poses, 0u);
        const std::span<const Vec3> vertices = t.portals.vertices(p);
        ASSERT_GE(vertices.size(), 3u);
        const Plane& plane = t.planes[size_t(p.plane)];
        const Vec3& v0 = vertices[0];
        Vec3 normal = Vec3::Zero(); // right-hand normal of the winding
        for (size_t k = 1; k + 1 < vertices.size(); ++k) normal += (vertices[k] - v0).cross(vertices[k + 1] - v0);
        ASSERT_GT(normal.dot(plane.normal), 0.0) << "winding is not counter-clockwise seen from the front";
        for (const Vec3& v : vertices) {
            ASSERT_LE(std::abs(plane.signedDistance(v)), kVertexTolerance);
            ASSERT_GE(cells[size_t(p.front)].clearance(v), -kVertexTolerance) << "outside the front cell";
            ASSERT_GE(cells[size_t(p.back)].clearance(v), -kVertexTolerance) << "outside the back cell";
        }
        ASSERT_GT(plane.signedDistance(cells[size_t(p.front)].vertexCentroid()), 0.0);
        ASSERT_LT(plane.signedDistance(cells[size_t(p.back)].vertexCentroid()), 0.0);
    }
    expectPortalsCoverOpenFaces(t, cells);
}

std::vector<Vec3> playerStarts(const std::string& path) {
    const MapReadResult r = readMapFile(path);
    std::vector<Vec3> starts;
    if (r.ok())
        for (const PointEntity& e : pointEntities(*r.map))
            if (e.classname == "info_player_start") starts.push_back(e.origin);
    return starts;
}

BspTree compileSample(const std::string& name) {
    const World w = loadMap(SHALLOT_SAMPLE_MAPS "/" + name);
    const CompileResult r = compileWorld(w);
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(r.problems.empty());
    EXPECT_EQ(r.stats.portals, r.onion.portals.size());
    return r.onion;
}

bool onWorldBox(const BspTree& t, const Vec3& p) {
    const Aabb box = treeBox(t);
    return ((p - box.mins).cwiseAbs().minCoeff() < 1e-6 || (p - box.maxs).cwiseAbs().minCoeff() < 1e-6) &&
           box.contains(p, 1e-6);
}

} // namespace

TEST(Portals, InvariantsOnRandomWorlds) {
    Rng rng(11);
    for (int round = 0; round < 16; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const World w = randomWorld(rng, 14, 90, 2);
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty()) << r.error;
        EXPECT_GT(r.onion.portals.size(), 0u);
        expectPortalInvariants(r.onion);
        if (HasFatalFailure()) return;
    }
}

TEST(Portals, InvariantsOnTheSampleWorlds) {
    for (const char* name : {"figure1_rooms.map", "low_tunnel.map", "sealed_box.map", "leaky_box.map"}) {
        SCOPED_TRACE(name);
        expectPortalInvariants(compileSample(name));
        if (HasFatalFailure()) return;
    }
}

TEST(Portals, LeafCellsTagFacesWithTheirPlanes) {
    const BspTree t = compileSample("figure1_rooms.map");
    const LeafCellList cells = leafCells(t);
    for (size_t leaf = 0; leaf < cells.size(); ++leaf) {
        ASSERT_FALSE(cells[leaf].empty());
        EXPECT_GE(cells[leaf].clearance(t.leaves[leaf].interiorPoint), -kVertexTolerance);
        for (const ConvexFace& f : cells[leaf].faces) {
            if (f.tag == kWorldBoxFace) continue;
            const Plane& p = t.planes[size_t(f.tag)];
            EXPECT_TRUE(p.normal == f.plane.normal && p.dist == f.plane.dist) << "leaf " << leaf;
        }
    }
}

TEST(Portals, Figure1CorridorJoinsTheRooms) {
    const BspTree t = compileSample("figure1_rooms.map");
    const Vec3 lower(400, 300, 100), upper(400, 700, 100);
    for (int pose = 0; pose < 3; ++pose) {
        EXPECT_TRUE(reachable(t, pose, lower, upper)) << t.poses[size_t(pose)].name;
        const Flood f = flood(t, pose, {Vec3(400, 300, 24)}); // the info_player_start
        EXPECT_GE(f.starts[0].leaf, 0);
        EXPECT_FALSE(f.leak);
        EXPECT_TRUE(f.reached[size_t(t.findLeaf(upper))]);
        // A portal crossed on the way lies across the corridor (x 300..500, y 416..584; a
        // pose's box grows the corridor's walls, so for it the corridor is that much longer).
        const Pose& p = t.poses[size_t(pose)];
        const double yFrom = 416 + p.mins.y(), yTo = 584 + p.maxs.y();
        bool corridor = false;
        for (uint32_t i : f.portalsCrossed) {
            const Aabb box = [&] {
                Aabb b;
                for (const Vec3& v : t.portals.vertices(i)) b.add(v);
                return b;
            }();
            corridor |= box.mins.y() == box.maxs.y() && box.mins.y() >= yFrom && box.mins.y() <= yTo &&
                        box.mins.x() >= 300 && box.maxs.x() <= 500;
        }
        EXPECT_TRUE(corridor) << t.poses[size_t(pose)].name;
    }
}

TEST(Reach, LowTunnelLetsCrouchThroughButNotStand) {
    const BspTree t = compileSample("low_tunnel.map");
    const int point = t.poseIndex("point"), stand = t.poseIndex("stand"), crouch = t.poseIndex("crouch");
    const Vec3 roomA(128, 128, 24), roomB(512, 128, 100); // A: the info_player_start, on the floor
    EXPECT_TRUE(reachable(t, point, roomA, roomB));
    EXPECT_TRUE(reachable(t, crouch, roomA, roomB));
    EXPECT_FALSE(reachable(t, stand, roomA, roomB));
    const ReachAnswer a = reachBetween(t, stand, roomA, roomB);
    EXPECT_GE(a.fromLeaf, 0);
    EXPECT_GE(a.toLeaf, 0);
    const Flood standing = flood(t, stand, {roomA}), crouching = flood(t, crouch, {roomA});
    EXPECT_FALSE(standing.reached[size_t(t.findLeaf(roomB))]);
    EXPECT_TRUE(crouching.reached[size_t(t.findLeaf(roomB))]);
    EXPECT_LT(standing.volume, crouching.volume);
    EXPECT_FALSE(standing.leak || crouching.leak);
}

TEST(Reach, StartsOnTheFloorAreNudgedOff) {
    const BspTree t = compileSample("sealed_box.map");
    const int player = t.poseIndex("player");
    const Vec3 onFloor(128, 128, 24); // the player box touches the floor exactly
    const StartPoint s = placeStart(t, player, onFloor);
    ASSERT_GE(s.leaf, 0);
    EXPECT_FALSE(t.isSolid(s.point, player));
    EXPECT_LE((s.point - onFloor).norm(), kStartNudge);
    EXPECT_EQ(placeStart(t, player, Vec3(128, 128, 20)).leaf, -1); // 4 units into the floor
    EXPECT_EQ(placeStart(t, player, Vec3(256, -8, 128)).leaf, -1);  // inside a wall
    EXPECT_FALSE(reachable(t, player, Vec3(256, -8, 128), onFloor));
}

TEST(Reach, SealedBoxDoesNotLeak) {
    const BspTree t = compileSample("sealed_box.map");
    const Flood outside = flood(t, 0, {Vec3(5000, 5000, 5000)});
    EXPECT_TRUE(outside.leak);
    EXPECT_EQ(outside.leakPath.size(), 2u); // the start's leaf touches the world box
    // The empty space inside: the room shrunk by each pose's box.
    const double inside[] = {512.0 * 512 * 256, 480.0 * 480 * 200, 448.0 * 448 * 168};
    for (int pose = 0; pose < 3; ++pose) {
        const Flood f = flood(t, pose, {Vec3(128, 128, 24)});
        EXPECT_FALSE(f.leak) << pose;
        EXPECT_TRUE(f.leakPath.empty());
        EXPECT_NEAR(f.volume, inside[pose], 1e-6 * inside[pose]) << pose;
    }
    // Fill outside: the void around the box is unreachable, the room is not.
    const std::vector<uint64_t> filled = unreachableEmptyLeaves(t, {Vec3(128, 128, 24)});
    EXPECT_EQ(filled[size_t(t.findLeaf(Vec3(5000, 5000, 5000)))], 0b111u);
    EXPECT_EQ(filled[size_t(t.findLeaf(Vec3(256, 256, 128)))], 0u);
    for (size_t leaf = 0; leaf < t.leafCount(); ++leaf) EXPECT_EQ(filled[leaf] & t.leafSolid[leaf], 0u);
    // The other fill: from the void, the room is never reached.
    for (int pose = 0; pose < 3; ++pose) {
        const std::vector<bool> fromOutside = reachableFromOutside(t, pose);
        EXPECT_TRUE(fromOutside[size_t(t.findLeaf(Vec3(5000, 5000, 5000)))]);
        EXPECT_FALSE(fromOutside[size_t(t.findLeaf(Vec3(256, 256, 128)))]) << pose;
    }
}

TEST(Reach, LeakyBoxLeaksThroughTheHole) {
    const BspTree t = compileSample("leaky_box.map");
    const Vec3 start(128, 128, 24);
    for (int pose = 0; pose < 3; ++pose) {
        SCOPED_TRACE(t.poses[size_t(pose)].name);
        const Flood f = flood(t, pose, {start});
        ASSERT_TRUE(f.leak);
        ASSERT_GE(f.leakPath.size(), 3u);
        EXPECT_LE((f.leakPath.front() - start).norm(), kStartNudge);
        EXPECT_TRUE(onWorldBox(t, f.leakPath.back())) << f.leakPath.back().transpose();
        // The path crosses the middle of the east wall (x = 520) inside the hole.
        bool throughHole = false;
        for (size_t i = 0; i + 1 < f.leakPath.size(); ++i) {
            const Vec3 a = f.leakPath[i], b = f.leakPath[i + 1];
            if ((a.x() - 520) * (b.x() - 520) > 0 || a.x() == b.x()) continue;
            const Vec3 hit = a + (520 - a.x()) / (b.x() - a.x()) * (b - a);
            throughHole |= hit.y() >= 192 && hit.y() <= 320 && hit.z() >= 0 && hit.z() <= 128;
        }
        EXPECT_TRUE(throughHole);
        EXPECT_EQ(unreachableEmptyLeaves(t, {start})[size_t(t.findLeaf(Vec3(5000, 5000, 5000)))], 0u);
        EXPECT_TRUE(reachableFromOutside(t, pose)[size_t(t.findLeaf(Vec3(256, 256, 128)))]); // in through the hole
    }
}

// The shared Quake levels: the invariants, and from their info_player_start no leak for
// the player pose (they are sealed levels). Prints what each pose reaches.
TEST(Reach, SharedMapsAreSealedForThePlayer) {
    const std::filesystem::path dir(SHALLOT_SHARED_MAPS);
    if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no " << dir;
    std::vector<std::filesystem::path> maps;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".map") maps.push_back(e.path());
    std::sort(maps.begin(), maps.end());
    ASSERT_GE(maps.size(), 9u);
    test::keepScaledShare(maps);
    for (const auto& path : maps) {
        SCOPED_TRACE(path.filename().string());
        const std::vector<Vec3> starts = playerStarts(path.string());
        ASSERT_EQ(starts.size(), 1u);
        CompileOptions options;
        options.threads = 2;
        const CompileResult r = compileWorld(loadMap(path.string()), options);
        ASSERT_TRUE(r.error.empty()) << r.error;
        const BspTree& t = r.onion;
        expectPortalInvariants(t);
        for (size_t pose = 0; pose < t.poses.size(); ++pose) {
            const Flood f = flood(t, int(pose), starts);
            size_t open = 0;
            for (const Portal& p : t.portals) open += (p.poses >> pose) & 1u;
            std::cout << "[ reach    ] " << path.filename().string() << " " << t.poses[pose].name << ": start leaf "
                      << f.starts[0].leaf << ", " << f.reachedLeaves << " leaves, volume " << f.volume << ", "
                      << f.portalsCrossed.size() << " of " << open << " open portals crossed"
                      << (f.leak ? ", LEAKS" : "") << "\n";
            if (t.poses[pose].name == "player") {
                EXPECT_GE(f.starts[0].leaf, 0);
                EXPECT_FALSE(f.leak);
            }
        }
    }
}
