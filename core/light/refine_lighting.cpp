#include "light/refine_lighting.h"

#include "compile/parallel_for.h"
#include "compile/stopwatch.h"
#include "light/coarse_lattice.h"

#include <atomic>

namespace shallot {

RefineStats refineCoarseFaces(LevelLighting& lit, const LightOccluder& occluder, int threads, const CancelToken* cancel) {
    Stopwatch clock;
    const LightPass pass{1, cancel};
    std::atomic<size_t> faces{0}, rays{0}, sampleTests{0};
    parallelFor(lit.faces.size(), threads, [&](size_t f) {
        FaceLightmap& map = lit.lightmaps[f];
        if (map.stride == 1 || pass.cancelled()) return;
        FaceLightCounts counts;
        map = lightFace(lit.faces[f], map.grid, lit.lights, lit.settings, occluder, counts);
        ++faces;
        rays += counts.rays;
        sampleTests += counts.sampleTests;
    });
    throwIfCancelled(cancel);
    return RefineStats{faces, rays, sampleTests, clock.lapMs()};
}

CoarseShare coarseShare(const LevelLighting& lit) {
    CoarseShare share;
    for (const FaceLightmap& map : lit.lightmaps) {
        if (map.stride == 1) continue;
        ++share.faces;
        share.luxels += size_t(map.grid.luxels());
        share.latticeLuxels += latticeLines(map.grid.width(), map.stride).size() * latticeLines(map.grid.height(), map.stride).size();
    }
    return share;
}

} // namespace shallot
