#include "portal/sight_map_tree.h"

#include "compile/compiler.h"
#include "portal/portal_generation.h"

namespace shallot {

std::optional<BspTree> compileSightMapTree(const std::vector<Brush>& brushes, const Pose& sight, const Aabb& bounds,
                                           int threads, const CancelToken* cancel, std::string* error) {
    const World world{brushes, {sight}, bounds};
    CompileOptions options;
    options.threads = threads;
    options.cancel = cancel;
    CompileResult compiled = compileWorld(world, options);
    if (!compiled.error.empty() || compiled.mapTrees.empty()) {
        if (error) *error = compiled.error;
        return std::nullopt;
    }
    BspTree map = std::move(compiled.mapTrees[0]);
    map.portals = generatePortals(map);
    return map;
}

} // namespace shallot
