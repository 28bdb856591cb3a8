#pragma once
// Direct light of a whole level: its lit faces (lit_faces.h), each face's luxel grid and
// lightmaps (face_light.h) from the lights of its entities (light_entities.h), shadows by
// an occluder (tree_occluder.h: the point pose's tree), faces lit in parallel.
#include "compile/cancel_token.h"
#include "light/face_light.h"
#include "light/light_entities.h"
#include "light/lit_faces.h"

#include <functional>
#include <string>
#include <vector>

namespace shallot {

struct LightStats {
    size_t faces = 0;            // lit faces found
    size_t outsideFaces = 0;     // of them, facing the void outside (not lit)
    size_t lightmappedFaces = 0; // of them, with a lightmap
    size_t luxels = 0;
    size_t lights = 0;           // point lights read
    size_t rays = 0;             // shadow and sun segment tests
    size_t sampleTests = 0;      // segment tests placing sample points
    size_t bounces = 0, bouncePatches = 0, bounceRays = 0; // the bounce (bounce.h), when asked for
    size_t reusedFaces = 0;      // lightmaps kept from before an edit (brush_relight.h)
    double msEntities = 0, msFaces = 0, msLight = 0, msBounce = 0;
};

struct LevelLighting {
    std::vector<LitFace> faces;
    std::vector<FaceLightmap> lightmaps; // per face; empty styles when not lightmapped
    LightSettings settings;
    std::vector<PointLight> lights; // what it was lit with (for relighting: relight.h)
    LightStats stats;
    std::vector<std::string> warnings;
};

// Marks faces that face the void outside the level (given the faces and the lights);
// nothing, or a warning when the level leaks and every face is lit.
using OutsideFaceTest =
    std::function<std::vector<bool>(const std::vector<LitFace>&, const LightEntities&, std::vector<std::string>& warnings)>;

// What a level is lit from: its static world brushes (World::brushes) and its entities
// (lights, worldspawn keys, brush entities' own brushes); `file` names it in warnings.
struct LightInput {
    const std::vector<Brush>* worldBrushes = nullptr;
    const std::vector<MapEntity>* entities = nullptr;
    Aabb bounds;
    std::string file;
    // The lit faces when the caller collected them already (collectLitFaces with the same
    // brushes and entities: a caller may do it while the tree compiles); moved from.
    LitFaceSet* faces = nullptr;
};

// How a lighting pass runs: the luxel stride of the faces it lights (1: full resolution; more:
// coarse lightmaps, coarse_lattice.h, that refineCoarseFaces (refine_lighting.h) lights in
// full later), and the token that cancels it: checked before each face, and when set the
// pass throws CompileCancelled once the faces started have ended.
struct LightPass {
    int stride = 1;
    const CancelToken* cancel = nullptr;
    bool cancelled() const { return cancel && cancel->cancelled.load(std::memory_order_relaxed); }
};

// A lightmap computed before that the face can keep (brush_relight.h), or null to light it.
using FaceReuse = std::function<const FaceLightmap*(const LitFace& face, const LuxelGrid& grid,
                                                    const std::vector<PointLight>& lights, const LightSettings& settings)>;

// Lights every face with the occluder (shared by the threads: it must be thread-safe),
// but those `outside` marks (when given); a face `reuse` (when given) answers for keeps
// that lightmap.
LevelLighting lightLevel(const LightInput& input, const LightOccluder& occluder, int threads,
                         const OutsideFaceTest& outside = {}, const FaceReuse& reuse = {}, const LightPass& pass = {});

} // namespace shallot
