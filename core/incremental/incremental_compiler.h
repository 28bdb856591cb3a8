#pragma once
// Compiles a world again after an edit, rebuilding only what the edit touches: the
// expanded brushes of the changed brushes, the union faces of the brushes near them, and
// the parts of the map trees and the onion tree that those faces reach (tree_update.h);
// the portals of the nodes whose subtree changed. Everything else is kept from the
// previous compile. Answers every query as compileWorld would on the same world.
#include "compile/compile_state.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace shallot {

// Leaf maps (onionLeafOfPrevious) of two updates one after the other: per leaf of the
// first one's previous tree, its copy after both, or -1.
std::vector<int32_t> composeLeafMaps(const std::vector<int32_t>& first, const std::vector<int32_t>& second);

class IncrementalCompiler {
public:
    // keepCells: also keep every onion leaf's cell (leafCells()), for the editor's overlays.
    explicit IncrementalCompiler(bool keepCells = false) : keepCells_(keepCells) {}

    // Compiles `world`, from scratch the first time and whenever the poses, the world box or
    // the splitter constants differ from the previous call, when the edit changed more
    // than a fraction of the brushes, or when updates have grown the tree or the plane pool
    // too much. CompileStats::incremental says which it was. Throws
    // CompileCancelled (only from a compile from scratch: updates are short and run to
    // the end); after any error the next call compiles from scratch.
    // The result is shared, not copied: the compiler keeps it to update after the next
    // edit, which makes a new result and leaves this one as it is, so a caller may keep
    // showing or querying it on another thread meanwhile.
    std::shared_ptr<const CompileResult> compile(const World& world, const CompileOptions& options = {});

    // The onion's leaf cells of the last compile (keepCells), indexed like its leaves.
    const LeafCellList& leafCells() const;

    // What the last compile kept of the onion of the compile before it: per leaf of that
    // onion, its copy in this one (the same cell and leaf polygons; its solidity may have
    // been classified again), or -1. Empty after a compile from scratch. Kept leaves keep
    // their order, so the editor can keep what it drew of them (render/overlay_update.h).
    const std::vector<int32_t>& onionLeafOfPrevious() const { return leafOfPrevious_; }

private:
    bool canUpdate(const World& world, const CompileOptions& options) const;
    // Brings the state up to `world`; false (state untouched) when the edit is too large.
    bool update(const World& world, const CompileOptions& options);

    bool keepCells_;
    std::unique_ptr<CompileState> state_;
    std::shared_ptr<const CompileResult> result_; // of the last compile, null when state_ is
    std::vector<int32_t> leafOfPrevious_;
    size_t scratchNodes_ = 0;  // onion nodes of the last compile from scratch
    size_t scratchPlanes_ = 0; // and planes in its pool
};

} // namespace shallot
