#pragma once
// A round pose's expanded world over a whole level (round_expanded_surface.h, brush by
// brush), kept between edits: an update tessellates again only the brushes that are new or
// changed (planes, contents, excluded poses), all of them when the pose's shape or what
// blocks it changed. One designer's edit touches a few brushes; the level has a thousand.
//
// What is drawn of each brush leaves out its triangles that lie deep inside another
// brush's grown copy (shown()): neighbouring brushes' grown copies overlap widely (three
// triangles in four on id_e1m1 with a capsule 16,56), and those inside another's are never
// seen from the empty space. Exact: a grown brush is convex, so a triangle whose three
// corners lie deeper than kHiddenDepth inside one lies deeper than that throughout, and the
// other brush's own drawn triangles (chords at most the tessellation's sag inside its
// surface) close it off in front of them. Only the brushes near an edit are tested again.
#include "compile/cancel_token.h"
#include "query/round_expanded_surface.h"
#include "query/round_shape_space.h"
#include "world/world.h"

#include <memory>
#include <vector>

namespace shallot {

// One brush's triangles, shared between updates that keep it.
using RoundSurfacePiece = std::shared_ptr<const std::vector<RoundSurfaceVertex>>;

// How deep (in the shape's space, as a multiple of the tessellation's sag radius
// (1 - cos kRoundSurfaceStep)) a triangle's corners must lie inside another brush's grown
// copy for the triangle to be left out: twice the sag, so that the covering brush's chords
// (at most one sag inside its surface, the corner patches' uneven rings included) are
// always in front of it, with room for rounding.
inline constexpr double kHiddenDepthSags = 2.0;

class RoundExpandedWorld {
public:
    // Brings the surfaces to `world` for round pose `pose` (valid), tessellating on up to
    // `threads` threads. Throws CompileCancelled, changing nothing, when `cancel` is set
    // meanwhile.
    void update(const World& world, const Pose& pose, int threads = 1, const CancelToken* cancel = nullptr);

    // Per brush of the world, its triangles (three vertices each; none for a brush that
    // does not block the pose or is invalid).
    std::vector<RoundSurfacePiece> pieces() const;
    // Per brush of the world, the box of its triangles (empty for none): a plane that
    // misses it cuts none of them.
    std::vector<Aabb> bounds() const;
    // Per brush, the triangles drawn: pieces() less those deep inside another brush's grown
    // copy (the same piece when none is).
    std::vector<RoundSurfacePiece> shown() const;
    // Brushes tessellated by the last update (the rest were kept), and brushes whose shown
    // triangles it sorted out again (those and their neighbours).
    size_t tessellated() const { return tessellated_; }
    size_t sortedOut() const { return sortedOut_; }

private:
    struct Entry {
        // What the surface depends on: the brush's planes, contents and excluded poses.
        std::vector<Plane> planes;
        BrushContents contents = BrushContents::Solid;
        std::vector<std::string> excludedPoses;
        size_t key = 0;
        RoundSurfacePiece surface;
        RoundSurfacePiece shown;
        Aabb bounds;
        std::shared_ptr<const RoundBrush> round; // in the shape's space; null when it blocks nothing
    };
    Pose pose_;
    std::vector<Entry> entries_; // per brush of the last world
    size_t tessellated_ = 0, sortedOut_ = 0;
};

} // namespace shallot
