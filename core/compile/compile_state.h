#pragma once
// What a compile keeps on the way to its result, per brush and per pose, so that a later
// compile of an edited world can reuse what the edit did not touch (incremental/).
#include "compile/bsp_builder.h"
#include "compile/compiler.h"
#include "compile/union_faces.h"
#include "world/brush_geometry.h"

#include <vector>

namespace shallot {

// What a brush's compile depends on: its planes, contents and excluded poses (textures and
// source lines do not matter). Compared exactly.
struct BrushKey {
    std::vector<Plane> planes;
    BrushContents contents = BrushContents::Solid;
    std::vector<std::string> excludedPoses;
    size_t hash = 0;

    static BrushKey of(const Brush& brush);
    bool operator==(const BrushKey& other) const;
};

// One pose's share: its expanded brushes and each one's union faces, in world order.
struct PoseState {
    std::vector<ExpandedBrush> brushes;
    std::vector<std::vector<UnionFace>> faces; // faces[i]: brushes[i]'s union faces
    TreeRecord mapRecord;                      // of CompileResult::mapTrees[pose]
};

struct CompileState {
    std::vector<Pose> poses;
    Aabb bounds;
    SplitterParams splitter;
    std::vector<BrushKey> keys;                // per world brush
    std::vector<std::string> brushErrors;      // per world brush: empty when valid
    PlanePool pool;                            // judges merges over the world bounds
    std::vector<PoseState> perPose;
    TreeRecord onionRecord;
};

// The half-size of the cube the expanded brushes are clipped to.
double expansionExtent(const Aabb& worldBounds);

// The expanded brushes of `brush` (world index `index`) for every pose that it blocks;
// planes entered in `pool`. Entries stay empty for poses it does not block.
std::vector<std::optional<ConvexPolyhedron>> expandForPoses(const BrushGeometry& geometry, const Brush& brush,
                                                            const std::vector<Pose>& poses, double extent);

// The polygons of a pose's union faces for its map tree (pose 0) or the onion (pose p).
void appendBuildPolygons(const PoseState& pose, uint8_t poseTag, std::vector<BuildPolygon>& out);

// What a compile from scratch leaves in the state. A one-off compile (compileWorld) keeps
// nothing an update would need: it frees the expanded brushes and the union faces as soon
// as the trees are done with them and records no supports, which lowers its peak memory.
enum class KeptState { None, ForUpdates, ForUpdatesWithCells };

// The whole pipeline from scratch (compileWorld), filling `result` and, as `kept` says,
// `state` (ForUpdatesWithCells: also the onion's leaf cells in state.onionRecord). Throws
// CompileCancelled.
void compileFromScratch(const World& world, const CompileOptions& options, KeptState kept, CompileState& state,
                        CompileResult& result);

// Checks the world's poses; the error for CompileResult::error, empty when fine.
std::string posesProblem(const World& world);

// The union faces per pose (CompileStats::polygonsPerPose).
std::vector<size_t> unionFaceCounts(const CompileState& state);

// Fills the tree figures of result.stats (nodes, leaves, depth, bytes, portals...).
void fillTreeStats(CompileResult& result);

} // namespace shallot
