#pragma once
#include "compile/bsp_tree.h"
#include "portal/sight_pvs.h"

#include <memory>
#include <mutex>
#include <vector>

namespace shallot {

// A rectangle of the screen in normalised device coordinates (-1..1 both ways); empty as
// constructed.
struct ScreenRect {
    double x0 = 1, x1 = -1, y0 = 1, y1 = -1;
    bool empty() const { return x0 > x1 || y0 > y1; }
};

// The pose that sees: the first pose whose box is a point (Quake's "point" hull, the
// world as drawn). -1 when the tree has none.
int sightPose(const BspTree& tree);
// The same of a world's poses, before any tree exists (at most the 64 a tree holds).
int sightPose(const std::vector<Pose>& poses);

// Which leaves the eye may see, through the portals open for the sight pose, within the
// view. Portal culling after Luebke and Georges ("Portals and mirrors", 1995): from the
// eye's leaf, each portal's screen rectangle is cut by the rectangle through which its
// leaf is seen; a leaf is seen through the union of the rectangles that reach it. That
// is conservative: every point joined to the eye by a segment through no solid of the
// sight pose, and inside the view, lies in a leaf marked seen. The 3D view draws the
// tree overlays of seen leaves only: those of the others are behind the level's walls.
class LeafVisibility {
public:
    explicit LeafVisibility(std::shared_ptr<const BspTree> tree);

    const BspTree& tree() const { return *tree_; }
    bool usable() const { return pose_ >= 0; }
    // The seen leaves from `eye` through the view whose world-to-clip matrix is `clip`
    // (OpenGL clip space, column vectors). Empty when everything counts as seen: no sight
    // pose, or the eye in solid (inside a wall, or flying outside the level's box).
    // Once restricted to a PVS, only leaves in the PVS of the eye's leaf.
    std::vector<bool> seenFrom(const Vec3& eye, const Eigen::Matrix4d& clip) const;
    // Narrows seenFrom to the PVS of the eye's leaf (the thesis's use of it: a leaf outside
    // it is not looked through either, so the search is shorter too). The portal culling
    // exists as soon as the tree does; the PVS of the same tree (pvs->onion() over its
    // leaves) comes later from another thread, hence const and locked. A PVS of another
    // leaf count is ignored; null lifts the restriction.
    void restrictTo(std::shared_ptr<const SightPvs> pvs) const;
    bool restricted() const;

private:
    std::shared_ptr<const BspTree> tree_;
    int pose_ = -1;
    std::vector<uint32_t> first_;   // per leaf, its first entry in portals_ (one more at the end)
    std::vector<uint32_t> portals_; // indices into tree.portals open for the sight pose
    // The search's per-leaf state, kept between calls (a frame of librequake_e3m4 allocated
    // and zeroed 2 MB of it); the next search resets only the entries this one touched.
    struct Scratch {
        std::vector<ScreenRect> rects;   // per leaf: the rectangle it is seen through
        std::vector<uint8_t> growths;    // per leaf: how often its rectangle grew
        std::vector<char> queued;
        std::vector<int32_t> touched, queue;
        int32_t pvsLeaf = -1;          // whose PVS pvsMask holds
        std::vector<bool> pvsMask;
    };
    mutable std::shared_ptr<const SightPvs> pvs_; // under scratchMutex_
    mutable std::mutex scratchMutex_;
    mutable Scratch scratch_;
};

} // namespace shallot
