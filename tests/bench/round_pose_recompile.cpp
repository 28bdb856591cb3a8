// What a round pose costs the editor to recompile, against a box pose (issue 42): a level
// (default ../shared/maps/id_e1m1.map) with point and player, then with a box pose added
// (Quake's large, 64x64x88), then with a capsule 16,56 added instead, compiled as the
// editor compiles it (services/compile_service.cpp: a round pose as its bounding box, one
// tree pose per document pose), from scratch and incrementally after moving one brush
// (IncrementalCompiler with the leaf cells, as the editor's); then its exact RoundPoseWorld,
// which the editor builds when a test ray first needs it. Then what the round pose's
// overlays add on the overlay worker while it is the current pose (services/
// round_pose_drawing.h): its two-box tree (incremental too) and its rounded expanded world
// (RoundExpandedWorld: only the edited brush again), from scratch and per edit. Not a test:
// it times things.
// Usage: round_pose_recompile [level.map] [edits]
#include "compile/compiler.h"
#include "edit/brush_operations.h"
#include "incremental/incremental_compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "portal/leaf_cells.h"
#include "query/round_expanded_world.h"
#include "query/round_pose_world.h"
#include "world/brush_geometry.h"
#include "world/round_pose_boxes.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>

using namespace shallot;

namespace {

// Compiles from scratch: the best of this many (the machine is shared).
constexpr int kScratchRuns = 3;
// How far each edit moves its brush (world units): a designer's nudge on the grid.
constexpr double kNudge = 8.0;

double millisecondsOf(const std::function<void()>& f) {
    const auto start = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

struct Figures {
    double scratch = 0.0, edit = 0.0, roundWorlds = 0.0;
};

// The editor's compile of `world`: round poses as their bounding boxes, then the exact
// worlds of the round poses.
Figures measure(const World& world, int edits, const CompileOptions& options) {
    World boxes = world;
    for (Pose& p : boxes.poses)
        if (p.shape.isRound()) p = boundingBoxPose(p);
    auto roundWorlds = [&](const World& w) {
        for (const Pose& p : w.poses)
            if (p.shape.isRound()) RoundPoseWorld exact(w, p);
    };
    Figures f;
    f.scratch = 1e300;
    for (int run = 0; run < kScratchRuns; ++run)
        f.scratch = std::min(f.scratch, millisecondsOf([&] {
            IncrementalCompiler c(true);
            c.compile(boxes, options);
            c.leafCells();
        }));
    f.roundWorlds = millisecondsOf([&] { roundWorlds(world); });
    IncrementalCompiler compiler(true);
    compiler.compile(boxes, options);
    std::mt19937_64 rng(11);
    std::vector<double> times;
    for (int e = 0; e < edits; ++e) {
        const size_t b = size_t(rng() % boxes.brushes.size());
        const Vec3 delta = kNudge * Vec3::Unit(int(rng() % 2));
        for (const double sign : {1.0, -1.0}) { // there and back: the level stays itself
            World edited = boxes;
            edited.brushes[b] = translated(boxes.brushes[b], sign > 0 ? delta : Vec3::Zero());
            times.push_back(millisecondsOf([&] {
                compiler.compile(edited, options);
                compiler.leafCells();
            }));
        }
    }
    f.edit = median(times);
    return f;
}

} // namespace

int main(int argc, char** argv) {
    const std::string path = argc > 1 ? argv[1] : std::string(SHALLOT_SOURCE_DIR) + "/../shared/maps/id_e1m1.map";
    const int edits = argc > 2 ? std::stoi(argv[2]) : 20;
    const MapReadResult read = readMapFile(path);
    if (!read.ok()) {
        std::fprintf(stderr, "%s\n", read.error.format().c_str());
        return 1;
    }
    World base = worldFromMap(*read.map);
    base.poses = {Pose{"point"}, Pose{"player", Vec3(-16, -16, -24), Vec3(16, 16, 32)}};
    World withBox = base;
    withBox.poses.push_back(Pose{"large", Vec3(-32, -32, -24), Vec3(32, 32, 64)});
    World withCapsule = base;
    withCapsule.poses.push_back(Pose::round("cap", PoseShape::capsule(16, 56)));
    CompileOptions options;
    options.threads = 1; // one thread: steadier figures on a shared machine

    std::printf("%s, %zu brushes, one thread; edits: %d brushes moved %g units and back (median)\n", path.c_str(),
                base.brushes.size(), edits, kNudge);
    std::printf("%-28s %12s %12s %14s\n", "poses", "scratch ms", "edit ms", "exact world ms");
    const std::pair<const char*, const World*> setups[] = {
        {"point, player", &base}, {"+ box large 64x64x88", &withBox}, {"+ capsule 16,56 (editor)", &withCapsule}};
    for (const auto& [name, world] : setups) {
        const Figures f = measure(*world, edits, options);
        std::printf("%-28s %12.1f %12.1f %14.1f\n", name, f.scratch, f.edit, f.roundWorlds);
    }

    // The overlays of the capsule as the current pose, on the overlay worker: from scratch
    // (the pose just chosen), then per edit.
    const Pose& cap = withCapsule.poses.back();
    auto twoBoxes = [&](const World& w) {
        World boxes = w;
        boxes.poses = {boundingBoxPose(cap), inscribedBoxPose(cap)};
        return boxes;
    };
    IncrementalCompiler boxes(true);
    RoundExpandedWorld surface;
    size_t triangles = 0;
    const double treeMs = millisecondsOf([&] {
        boxes.compile(twoBoxes(withCapsule), options);
        boxes.leafCells();
    });
    const double surfaceMs = millisecondsOf([&] {
        surface.update(withCapsule, cap);
        for (const RoundSurfacePiece& piece : surface.pieces()) triangles += piece ? piece->size() / 3 : 0;
    });
    std::mt19937_64 rng(11);
    std::vector<double> treeEdits, surfaceEdits;
    for (int e = 0; e < edits; ++e) {
        const size_t b = size_t(rng() % withCapsule.brushes.size());
        const Vec3 delta = kNudge * Vec3::Unit(int(rng() % 2));
        for (const double sign : {1.0, -1.0}) {
            World edited = withCapsule;
            if (sign > 0) edited.brushes[b] = translated(withCapsule.brushes[b], delta);
            treeEdits.push_back(millisecondsOf([&] {
                boxes.compile(twoBoxes(edited), options);
                boxes.leafCells();
            }));
            surfaceEdits.push_back(millisecondsOf([&] {
                surface.update(edited, cap);
                surface.pieces();
            }));
        }
    }
    std::printf("capsule's overlays: two-box tree and cells %.1f ms from scratch, %.1f ms per edit; rounded surface "
                "%.1f ms from scratch, %.1f ms per edit (%zu triangles)\n",
                treeMs, median(treeEdits), surfaceMs, median(surfaceEdits), triangles);
    return 0;
}
