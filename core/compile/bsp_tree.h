#pragma once
#include "geometry/aabb.h"
#include "geometry/flat_polygons.h"
#include "geometry/plane_pool.h"
#include "geometry/polygon.h"
#include "world/pose.h"

#include <cstdint>
#include <vector>

namespace shallot {

// A child reference: >= 0 is a node index, < 0 is the leaf ~ref.
using ChildRef = int32_t;
inline bool isLeaf(ChildRef r) { return r < 0; }
inline int32_t leafIndex(ChildRef r) { return ~r; }
inline ChildRef leafRef(int32_t leaf) { return ~leaf; }

// 12 bytes: the split plane (an id into BspTree::planes) and the two children.
struct BspNode {
    PlaneId plane;
    ChildRef front;
    ChildRef back;
};

// The child on the side of the node's plane at signed distance d (d >= 0: front). Branch-free
// on purpose: descending with random points, a branch here mispredicts at about every other
// level and costs more than the whole rest of the step.
inline ChildRef childAt(const BspNode& n, double d) {
    const int32_t frontMask = -int32_t(d >= 0.0);
    return (n.front & frontMask) | (n.back & ~frontMask);
}

// Down from r to the leaf holding p, in `nodes` (a tree's, or a point locator's that uses
// the tree's planes).
inline int32_t leafBelow(const BspNode* nodes, const Plane* planes, ChildRef r, const Vec3& p) {
    while (!isLeaf(r)) {
        const BspNode& n = nodes[size_t(r)];
        r = childAt(n, planes[size_t(n.plane)].signedDistance(p));
    }
    return leafIndex(r);
}

// A boundary polygon kept in a leaf, for rendering and navigation. Its vertices are in
// BspTree::polygons (polygons.vertices(p)).
struct LeafPolygon {
    PlaneId plane;  // facing of the polygon (outward from the pose's solid)
    uint8_t pose;   // the pose whose expanded world it bounds
    int32_t brush;  // the world brush it came from
    uint32_t firstVertex = 0, vertexCount = 0; // set by FlatPolygons
};
using LeafPolygons = FlatPolygons<LeafPolygon>;

// The cold per-leaf data; the hot solidity bits live in BspTree::leafSolid.
struct LeafInfo {
    Vec3 interiorPoint = Vec3::Zero(); // the point the leaf's solidity was classified at
    double clearance = 0.0;            // distance from interiorPoint to the cell boundary
    double volume = 0.0;
    uint32_t firstPolygon = 0;
    uint32_t polygonCount = 0;
    uint16_t depth = 0;
    bool degenerate = false;           // clearance below kDegenerateCellRadius
};

// An opening between two leaves whose cells share a face: the shared polygon, on the
// split plane of the node that separates the leaves (the front leaf is on its front side).
// `poses` has bit p set when both leaves are empty for poses[p]; it is never 0. Its
// vertices (counter-clockwise seen from the front leaf) are in BspTree::portals.
struct Portal {
    PlaneId plane;
    int32_t front;    // leaf indices
    int32_t back;
    uint64_t poses;
    uint32_t firstVertex = 0, vertexCount = 0; // set by FlatPolygons
};
using Portals = FlatPolygons<Portal>;

// A solid/empty BSP tree over one or more poses. An onion tree has a solidity bit per
// pose in every leaf; a map tree is the same structure with a single pose.
struct BspTree {
    std::vector<Pose> poses;
    std::vector<Plane> planes;        // pairs: planes[id ^ 1] is planes[id] flipped
    std::vector<BspNode> nodes;
    ChildRef root = leafRef(0);
    std::vector<uint64_t> leafSolid;  // bit p set: the leaf is solid for poses[p]
    std::vector<LeafInfo> leaves;
    LeafPolygons polygons;             // leaf polygons, LeafInfo::firstPolygon..+polygonCount
    Aabb bounds;                       // the world box the tree partitions
    Portals portals;                   // see portal/portal_generation.h

    int32_t findLeaf(const Vec3& p) const { return leafBelow(nodes.data(), planes.data(), root, p); }
    // Solidity bits at p (a point exactly on a split plane reads the front side).
    uint64_t solidityAt(const Vec3& p) const { return leafSolid[size_t(findLeaf(p))]; }
    bool isSolid(const Vec3& p, int pose) const { return (solidityAt(p) >> pose) & 1u; }
    int poseIndex(const std::string& name) const {
        for (size_t i = 0; i < poses.size(); ++i)
            if (poses[i].name == name) return int(i);
        return -1;
    }
    size_t leafCount() const { return leafSolid.size(); }
    int depth() const;
    size_t bytes() const; // memory held by the arrays
    Aabb polygonBounds() const; // of the leaf polygons' vertices; empty without any
};

} // namespace shallot
