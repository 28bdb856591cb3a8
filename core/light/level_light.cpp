#include "light/level_light.h"

#include "compile/parallel_for.h"
#include "compile/stopwatch.h"
#include "light/light_nudge.h"

#include <atomic>

namespace shallot {

LevelLighting lightLevel(const LightInput& input, const LightOccluder& occluder, int threads,
                         const OutsideFaceTest& outside, const FaceReuse& reuse, const LightPass& pass) {
    LevelLighting out;
    Stopwatch clock;
    LightEntities entities = readLightEntities(*input.entities, input.file);
    nudgeLightsOutOfSolid(entities.lights, occluder, input.file, entities.warnings);
    out.settings = entities.settings;
    out.warnings = std::move(entities.warnings);
    out.stats.lights = entities.lights.size();
    out.stats.msEntities = clock.lapMs();

    LitFaceSet faces = input.faces ? std::move(*input.faces)
                                   : collectLitFaces(*input.worldBrushes, *input.entities, input.bounds, threads);
    out.faces = std::move(faces.faces);
    out.warnings.insert(out.warnings.end(), faces.warnings.begin(), faces.warnings.end());
    out.stats.faces = out.faces.size();
    if (outside) {
        const std::vector<bool> marks = outside(out.faces, entities, out.warnings);
        for (size_t f = 0; f < out.faces.size() && f < marks.size(); ++f) {
            out.faces[f].outside = marks[f];
            out.stats.outsideFaces += marks[f];
        }
    }
    out.stats.msFaces = clock.lapMs();
    throwIfCancelled(pass.cancel);

    out.lightmaps.resize(out.faces.size());
    std::vector<std::string> gridErrors(out.faces.size());
    std::atomic<size_t> rays{0}, sampleTests{0}, reused{0};
    parallelFor(out.faces.size(), threads, [&](size_t f) {
        const LitFace& face = out.faces[f];
        if (!face.lightmapped || face.outside || pass.cancelled()) return;
        std::optional<LuxelGrid> grid = luxelGrid(face, &gridErrors[f]);
        if (!grid) return;
        if (const FaceLightmap* kept = reuse ? reuse(face, *grid, entities.lights, out.settings) : nullptr) {
            out.lightmaps[f] = *kept;
            ++reused;
            return;
        }
        FaceLightCounts counts;
        out.lightmaps[f] = lightFace(face, *grid, entities.lights, out.settings, occluder, counts, pass.stride);
        rays += counts.rays;
        sampleTests += counts.sampleTests;
    });
    throwIfCancelled(pass.cancel);
    for (size_t f = 0; f < out.faces.size(); ++f) {
        if (!gridErrors[f].empty()) out.warnings.push_back(input.file + ": face of brush " + std::to_string(out.faces[f].brush) +
                                                           ": " + gridErrors[f] + " (left unlit)");
        if (!out.lightmaps[f].styles.empty()) {
            ++out.stats.lightmappedFaces;
            out.stats.luxels += size_t(out.lightmaps[f].grid.luxels());
        }
    }
    out.stats.rays = rays;
    out.stats.sampleTests = sampleTests;
    out.stats.reusedFaces = reused;
    out.lights = std::move(entities.lights);
    out.stats.msLight = clock.lapMs();
    return out;
}

} // namespace shallot
