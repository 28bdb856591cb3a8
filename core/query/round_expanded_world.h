#pragma once
// A round pose's expanded world over a whole level (round_expanded_surface.h, brush by
// brush), kept between edits: an update tessellates again only the brushes that are new or
// changed (planes, contents, excluded poses), all of them when the pose's shape or what
// blocks it changed. One designer's edit touches a few brushes; the level has a thousand.
#include "compile/cancel_token.h"
#include "query/round_expanded_surface.h"
#include "world/world.h"

#include <memory>
#include <vector>

namespace shallot {

// One brush's triangles, shared between updates that keep it.
using RoundSurfacePiece = std::shared_ptr<const std::vector<RoundSurfaceVertex>>;

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
    // Brushes tessellated by the last update (the rest were kept).
    size_t tessellated() const { return tessellated_; }

private:
    struct Entry {
        // What the surface depends on: the brush's planes, contents and excluded poses.
        std::vector<Plane> planes;
        BrushContents contents = BrushContents::Solid;
        std::vector<std::string> excludedPoses;
        size_t key = 0;
        RoundSurfacePiece surface;
        Aabb bounds;
    };
    Pose pose_;
    std::vector<Entry> entries_; // per brush of the last world
    size_t tessellated_ = 0;
};

} // namespace shallot
