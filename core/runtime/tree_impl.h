#pragma once
// What a shallot::runtime::Tree holds (private to core/runtime).
#include "compile/bsp_tree.h"
#include "nav/nav_mesh.h"
#include "portal/tree_pvs.h"
#include "query/box_trace.h"
#include "shallot/runtime.h"
#include "world/world.h"

#include <memory>
#include <mutex>
#include <optional>

namespace shallot::runtime {

struct Tree::Impl {
    BspTree tree;
    std::optional<World> world; // the brushes (with the tree's poses and bounds), when known
    std::vector<PoseBox> poses;
    std::vector<std::string> warnings;
    std::optional<TreePvs> pvs; // of the sight pose, when stored or computed

    // Built on the first traceBox that needs it; call_once keeps concurrent queries safe.
    mutable std::once_flag boxWorldOnce;
    mutable std::unique_ptr<BoxTraceWorld> boxWorld;

    // Each pose's navigation mesh, built on its first path query.
    mutable std::mutex navMutex;
    mutable std::vector<std::unique_ptr<const NavMesh>> navMeshes;

    Impl(BspTree t, std::optional<World> w, std::vector<std::string> warn);
    const BoxTraceWorld& boxTraceWorld() const;
    const NavMesh& navMesh(int pose) const;
};

// Tree::compileMap's work (runtime_compile.cpp): the map read, its world built, poses
// chosen, compiled. Throws only what the standard library throws (bad_alloc).
Result<std::shared_ptr<const Tree::Impl>> compileMapFile(const std::string& mapPath, const std::vector<PoseBox>& poses,
                                                         int threads);

shallot::Vec3 toEigen(const Vec3& v);
Vec3 fromEigen(const shallot::Vec3& v);

} // namespace shallot::runtime
