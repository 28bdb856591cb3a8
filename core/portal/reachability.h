#pragma once
#include "compile/bsp_tree.h"

#include <vector>

namespace shallot {

// Everything here works on tree.portals (see portal_generation.h); `pose` is an index into
// tree.poses.

// How far a start point is moved to get off a boundary. Quake's player starts sit exactly
// on the floor (origin 24 above it, the player box reaching 24 down), so the point lies
// on the expanded floor's plane and may read as solid. An eighth of a unit is the
// precision of positions in Quake's network protocol: a move the game cannot even see.
inline constexpr double kStartNudge = 0.125;

// A start point placed in a leaf; leaf -1 when it is in solid for the pose.
struct StartPoint {
    Vec3 point = Vec3::Zero();
    int32_t leaf = -1;
};

// The empty leaf a start is in for `pose`: the point itself, or, when it reads solid (on
// a boundary or just inside one), the first empty of the point moved by kStartNudge up,
// along +x, -x, +y, -y, then down.
StartPoint placeStart(const BspTree& tree, int pose, const Vec3& point);

// A leaf whose cell touches the world box, with a point where it does.
struct OutsideLeaf {
    int32_t leaf = -1;
    Vec3 point = Vec3::Zero();
};
std::vector<OutsideLeaf> outsideLeaves(const BspTree& tree);

// What a flood fill over the portals open for one pose reaches.
struct Flood {
    int pose = 0;
    std::vector<StartPoint> starts;
    std::vector<bool> reached;            // per leaf
    size_t reachedLeaves = 0;
    double volume = 0.0;                  // LeafInfo::volume summed over the reached leaves
    std::vector<uint32_t> portalsCrossed; // open portals between reached leaves, ascending
    bool leak = false;                    // a reached leaf touches the world box
    // On a leak: start, portal centres..., a point on the world box. The shortest such
    // polyline with each leaf entered once, at the centre of the portal that reaches it
    // first (Dijkstra over leaves).
    std::vector<Vec3> leakPath;
    // The portals the leak path crosses, in order (one per point between its ends).
    std::vector<uint32_t> leakPortals;
};

// Floods from every start that is not in solid (see placeStart) over tree.portals.
Flood flood(const BspTree& tree, int pose, const std::vector<Vec3>& starts);

// Quake's "fill outside", without touching the raw solidity: per leaf, bit p set when the
// leaf is empty for pose p but no start reaches it. leafSolid[i] | result[i] is the
// solidity as seen from the starts, for the editor to grey out the rest.
std::vector<uint64_t> unreachableEmptyLeaves(const BspTree& tree, const std::vector<Vec3>& starts);

// The other "fill outside": per leaf, whether an agent in `pose` can get there from the
// void around the level (any empty leaf touching the world box). For a sealed level these
// are exactly the leaves outside it.
std::vector<bool> reachableFromOutside(const BspTree& tree, int pose);

// Can an agent in `pose` get from one point to the other? Leaves are -1 for points in solid.
struct ReachAnswer {
    int32_t fromLeaf = -1;
    int32_t toLeaf = -1;
    bool reachable = false;
};
ReachAnswer reachBetween(const BspTree& tree, int pose, const Vec3& from, const Vec3& to);
bool reachable(const BspTree& tree, int pose, const Vec3& from, const Vec3& to);

} // namespace shallot
