#pragma once
#include "compile/bsp_tree.h"
#include "compile/cancel_token.h"
#include "compile/splitter_choice.h"
#include "world/world.h"

#include <string>
#include <vector>

namespace shallot {

struct CompileOptions {
    int threads = 1;                  // worker threads for the per-pose phases
    SplitterParams splitter;
    const CancelToken* cancel = nullptr;
};

// A brush the compiler left out, and why.
struct BrushProblem {
    int brush = -1;       // index in World::brushes
    std::string message;  // names the brush and its file line when known
};

struct CompileStats {
    size_t brushes = 0;          // brushes in the world
    size_t validBrushes = 0;
    size_t poses = 0;
    size_t nodes = 0, leaves = 0;
    int depth = 0;
    std::vector<size_t> polygonsPerPose;    // union faces per pose
    std::vector<size_t> mapTreeNodesPerPose;
    size_t splits = 0;                      // polygon splits in the onion build
    size_t bytes = 0;                       // onion tree arrays
    size_t degenerateLeaves = 0;
    size_t portals = 0;                     // in the onion tree, open for at least one pose
    double msValidate = 0, msExpand = 0, msUnion = 0, msMapTrees = 0, msOnion = 0, msSolidity = 0;
    double msPortals = 0;
    bool incremental = false;               // an IncrementalCompiler update, not a compile from scratch
    size_t rebuiltNodes = 0;                // onion nodes an update built or walked (not copied whole)
    double msTotal() const { return msValidate + msExpand + msUnion + msMapTrees + msOnion + msPortals; }
};

struct CompileResult {
    BspTree onion;
    std::vector<BspTree> mapTrees; // one per pose, same plane ids as the onion tree
    std::vector<BrushProblem> problems;
    CompileStats stats;
    std::string error;             // set when the compile as a whole failed (no tree)
};

// The whole pipeline: validate brushes, expand each by each pose, union per pose, a map
// tree per pose, then the onion tree with leaf solidity, then its portals. Invalid
// brushes are reported in `problems` and left out; they never stop the compile. Throws
// CompileCancelled.
CompileResult compileWorld(const World& world, const CompileOptions& options = {});

} // namespace shallot
