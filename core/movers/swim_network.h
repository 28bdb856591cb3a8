#pragma once
// Ways through a body of water for a pose's box (travel's swims, travel_liquids.cpp), from
// the tree's portals: the portals between two leaves empty for the pose, where they pass
// through the water (the body's brushes grown by the box: where the reference point puts
// the box in the water). A leaf's cell is convex and empty, so every segment between two
// points of one leaf is clear: a route is a chain of crossings (the middle of a portal's
// wet part) from leaf to leaf. A straight swim between two floors misses the way round a
// corner of a winding channel (id_e4m1's sewers); these routes follow it.
#include "compile/bsp_tree.h"
#include "geometry/aabb.h"

#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace shallot {

// A standing reference point is on its floor (the floor's leaf reads it); this much higher
// it is in the leaf above the floor, where the swimmer is.
inline constexpr double kSwimAttachLift = 1.0;
// A portal whose part in the water is smaller than this (square units) is not crossed: a
// graze along the water's edge.
inline constexpr double kMinSwimCrossingArea = 1.0;

// One brush of the body grown by the pose's box (compile/brush_expansion.h: expandedPlanes),
// and the box of that region.
struct GrownWater {
    std::vector<Plane> planes;
    Aabb bounds;
};

struct SwimRoute {
    std::vector<Vec3> points; // from a source point to a target point, crossings between
    double length = 0.0;
};

// The portals of a tree that may carry swims for a pose: both leaves empty for it, the
// portal's box meeting some grown water brush. Found once for every body's network.
struct SwimPortals {
    std::vector<uint32_t> indices; // in tree.portals
    std::vector<Aabb> bounds;
};
SwimPortals swimPortals(const BspTree& tree, int pose, const std::vector<GrownWater>& water);

// The network of one body of water (its grown brushes `water`; `portals` found for them
// or for more), joining `places` (each a list of points: a floor's).
// Points join the network kSwimAttachLift above them (a route goes straight up from its
// first point and down to its last), in the leaf there; a point in solid there joins nothing.
class SwimNetwork {
public:
    SwimNetwork(const BspTree& tree, int pose, const SwimPortals& portals, const std::vector<GrownWater>& water,
                const std::vector<std::vector<Vec3>>& places);
    // Per place, the shortest route from any point of place `from` to its nearest point, or
    // nothing when no route joins them (nor for `from` itself).
    std::vector<std::optional<SwimRoute>> routesFrom(size_t from) const;
    // The same from a point that is not a place's.
    std::vector<std::optional<SwimRoute>> routesFromPoint(const Vec3& at) const;
    size_t crossingCount() const { return crossings_.size(); }

private:
    struct Crossing {
        Vec3 point;
        int32_t front, back; // the portal's leaves
    };
    // A point of a place, at its node kSwimAttachLift above it.
    struct PlacePoint {
        Vec3 point, lifted;
        int32_t leaf;
        uint32_t place;
    };

    // The routes from the points of place `from`, and from `extra` (a point of place
    // placeCount_) when given.
    std::vector<std::optional<SwimRoute>> search(size_t from, const std::optional<PlacePoint>& extra) const;

    const BspTree& tree_;
    int pose_;
    std::vector<Crossing> crossings_;
    std::unordered_map<int32_t, std::vector<uint32_t>> crossingsOfLeaf_;
    std::vector<PlacePoint> points_; // only those in a leaf empty for the pose
    std::unordered_map<int32_t, std::vector<uint32_t>> pointsOfLeaf_;
    size_t placeCount_ = 0;
};

} // namespace shallot
