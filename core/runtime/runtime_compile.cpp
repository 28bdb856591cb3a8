#include "runtime/tree_impl.h"

#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"

namespace shallot::runtime {

Result<std::shared_ptr<const Tree::Impl>> compileMapFile(const std::string& mapPath, const std::vector<PoseBox>& poses,
                                                         int threads) {
    Result<std::shared_ptr<const Tree::Impl>> out;
    const MapReadResult read = readMapFile(mapPath);
    if (!read.ok()) {
        out.error = read.error.format();
        return out;
    }
    std::vector<std::string> warnings;
    for (const MapWarning& w : read.map->warnings) warnings.push_back(w.message);
    World world = worldFromMap(*read.map, {}, &warnings);
    if (!poses.empty()) { // as shallot-cli compile --pose
        world.poses.clear();
        for (const PoseBox& p : poses) {
            Pose pose;
            pose.name = p.name;
            pose.mins = toEigen(p.mins);
            pose.maxs = toEigen(p.maxs);
            world.poses.push_back(pose);
        }
    }
    CompileOptions options;
    options.threads = std::max(1, threads);
    CompileResult compiled = compileWorld(world, options);
    if (!compiled.error.empty()) {
        out.error = mapPath + ": " + compiled.error;
        return out;
    }
    for (const BrushProblem& p : compiled.problems) warnings.push_back(p.message + " (skipped)");
    // The movers as shallot-cli compile stores them, so that save writes its bytes.
    auto movers = std::make_shared<const ObspMovers>(
        obspMoversOf(*read.map, compiled.onion.poses, world.bounds, options.threads));
    out.value = std::make_shared<const Tree::Impl>(makeLevel(std::move(compiled.onion), std::move(world),
                                                             std::move(warnings), std::nullopt, std::move(movers)));
    return out;
}

} // namespace shallot::runtime
