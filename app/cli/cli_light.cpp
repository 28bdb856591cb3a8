// shallot-cli light: Quake's direct light of a level (docs/lighting.md), computed with
// shadows through the point pose's tree, as one JSON line of figures.
#include "cli_common.h"
#include "level_objects_source.h"

#include "compile/stopwatch.h"
#include "io/obsp_format.h"
#include "light/bounce.h"
#include "light/brush_relight.h"
#include "light/refine_lighting.h"
#include "light/relight.h"
#include "light/tree_lighting.h"
#include "light/tree_occluder.h"
#include "portal/tree_pvs.h"
#include "world/brush_geometry.h"
#include "world/round_pose_boxes.h"

#include <iostream>
#include <thread>

namespace shallot::cli {

// More bounces add nothing visible (each reflects half of the last) and cost as much.
constexpr int kMaxBounces = 8;
// --relight moves each light this far (units): a designer's nudge on the 16-grid.
constexpr double kRelightMove = 16.0;
// --coarse: a stride beyond this lights hardly fewer luxels (faces are rarely wider).
constexpr int kMaxCoarseStride = 64;

namespace {

// --relight-brush K: K brushes in turn (spread over the world's list) moved kRelightMove
// along x; each edit's point tree compiled again and the level relit (light/
// brush_relight.h), both timed. With --coarse S the relight is the editor's: a coarse pass
// at stride S (its time to the first picture) and then the refinement (to the full one).
QJsonObject brushRelightBenchmark(const LevelLighting& lit, const World& world, const std::vector<Pose>& poses,
                                  const std::vector<MapEntity>& entities, const std::string& file, int count, int threads,
                                  int coarse) {
    double compileTotal = 0, relightTotal = 0, relightWorst = 0, coarseTotal = 0;
    size_t relit = 0;
    for (int k = 0; k < count; ++k) {
        const size_t index = size_t(k) * world.brushes.size() / size_t(count);
        World edited{world.brushes, poses, world.bounds};
        Brush& brush = edited.brushes[index];
        Aabb region;
        for (BrushSide& side : brush.sides) side.plane.dist += side.plane.normal.x() * kRelightMove;
        for (const Brush* b : {&world.brushes[index], static_cast<const Brush*>(&brush)})
            if (const BrushGeometryResult g = buildBrushGeometry(*b, world.bounds); g.geometry) region.add(g.geometry->bounds);
        if (region.empty()) continue;
        Stopwatch clock;
        CompileOptions options;
        options.threads = threads;
        const CompileResult compiled = compileWorld(edited, options);
        compileTotal += clock.lapMs();
        const LightInput in{&edited.brushes, &entities, edited.bounds, file};
        const int pose = pointPoseIndex(compiled.onion.poses);
        LevelLighting after = relightAfterBrushEdit(lit, in, compiled.onion, pose, region, threads, LightPass{coarse});
        double ms = clock.lapMs();
        if (coarse > 1) {
            coarseTotal += ms;
            const SkyFaces sky(edited.brushes, edited.bounds);
            refineCoarseFaces(after, TreeOccluder(compiled.onion, pose, sky), threads);
            ms += clock.lapMs();
        }
        relightTotal += ms;
        relightWorst = std::max(relightWorst, ms);
        relit += after.stats.lightmappedFaces - after.stats.reusedFaces;
    }
    QJsonObject out{{"edits", count},
                    {"mean_compile_ms", compileTotal / count},
                    {"mean_ms", relightTotal / count},
                    {"max_ms", relightWorst},
                    {"mean_faces", double(relit) / count}};
    if (coarse > 1) out["mean_coarse_ms"] = coarseTotal / count;
    return out;
}

// --bounce-pvs: which PVS narrows the bounce's receivers (light/bounce_pvs.h). Both flows are
// conservative, so the light is the same; the base flow costs a fraction of a second on
// id_e1m1 where the full flow costs seconds, and leaves only a few more pairs to test.
enum class BouncePvsMode { None, Base, Full };

std::optional<BouncePvsMode> bouncePvsMode(const std::string& name) {
    if (name == "none") return BouncePvsMode::None;
    if (name == "base") return BouncePvsMode::Base;
    if (name == "full") return BouncePvsMode::Full;
    return std::nullopt;
}

// The PVS of the shadow tree's leaves for the bounce, when asked for and when it is for the
// shadows' pose; why not in `warning` otherwise.
std::optional<TreePvs> pvsForBounce(BouncePvsMode mode, const BspTree& tree, int shadowPose,
                                    const std::vector<Brush>& brushes, int threads, std::string& warning) {
    if (mode == BouncePvsMode::None) return std::nullopt;
    TreePvsSettings settings;
    settings.fullFlow = mode == BouncePvsMode::Full;
    settings.threads = threads;
    TreePvsResult r = computeTreePvs(tree, brushes, settings);
    if (!r.pvs) warning = "bounce: no PVS (" + r.error + "): every patch pair is tested";
    else if (r.pvs->pose != shadowPose) {
        warning = "bounce: the PVS is for another pose than the shadows': every patch pair is tested";
        return std::nullopt;
    }
    return std::move(r.pvs);
}

} // namespace

int runLight(const std::vector<std::string>& args) {
    std::string input, output;
    bool stats = false;
    int threads = 1, bounces = 0, relights = 0, brushRelights = 0, coarse = 1;
    std::optional<BouncePvsMode> pvsMode = BouncePvsMode::Base;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool hasValue = i + 1 < args.size();
        if (a == "--stats") stats = true;
        else if (a == "--threads" && hasValue) threads = std::atoi(args[++i].c_str());
        else if (a == "-o" && hasValue) output = args[++i];
        else if (a == "--bounce" && hasValue) bounces = std::atoi(args[++i].c_str());
        else if (a == "--bounce-pvs" && hasValue) pvsMode = bouncePvsMode(args[++i]);
        else if (a == "--relight" && hasValue) relights = std::atoi(args[++i].c_str());
        else if (a == "--relight-brush" && hasValue) brushRelights = std::atoi(args[++i].c_str());
        else if (a == "--coarse" && hasValue) coarse = std::atoi(args[++i].c_str());
        else if (!a.empty() && a[0] != '-' && input.empty()) input = a;
        else {
            printError("light: unexpected argument '" + a + "'");
            return kExitUsage;
        }
    }
    if (input.empty() || threads < 1 || bounces < 0 || bounces > kMaxBounces || relights < 0 || brushRelights < 0 ||
        coarse < 1 || coarse > kMaxCoarseStride || !pvsMode) {
        printError("light: usage: light IN.map|IN.shallot [-o OUT.obsp] [--bounce N (0-" + std::to_string(kMaxBounces) +
                   ")] [--bounce-pvs none|base|full] [--relight K] [--relight-brush K] [--coarse S (1-" + std::to_string(kMaxCoarseStride) +
                   ")] [--stats] [--threads N]");
        return kExitUsage;
    }
    Stopwatch total;
    std::optional<LoadedWorld> loaded = loadWorld(input);
    if (!loaded) return kExitInputError;
    // Shadows: the point pose's tree (the first point pose; the default point when none).
    // With -o the whole world is compiled, as shallot-cli compile does, and stored with the
    // lightmaps; its point pose gives the shadows.
    World world = std::move(loaded->world);
    for (const Pose& p : world.poses)
        if (p.shape.isRound() && !output.empty()) {
            printError("light: pose '" + p.name + "' is round: .obsp stores box poses only");
            return kExitUsage;
        }
    const int point = pointPoseIndex(world.poses);
    Pose pose;
    pose.name = "point";
    if (point >= 0) pose = world.poses[size_t(point)];
    World shadowWorld{world.brushes, {pose}, world.bounds};
    if (!output.empty()) {
        shadowWorld.poses = treePoses(world.poses);
        if (point < 0) shadowWorld.poses.push_back(pose);
    }
    Stopwatch clock;
    CompileOptions options;
    options.threads = threads;
    // The faces need no tree: with a second thread they are collected while it compiles.
    LitFaceSet faces;
    double facesMs = 0;
    std::thread collector;
    if (threads > 1)
        collector = std::thread([&] {
            Stopwatch facesClock;
            faces = collectLitFaces(world.brushes, loaded->entities, world.bounds, 1);
            facesMs = facesClock.lapMs();
        });
    CompileResult compiled;
    try {
        compiled = compileWorld(shadowWorld, options);
    } catch (...) {
        if (collector.joinable()) collector.join();
        throw;
    }
    if (collector.joinable()) collector.join();
    if (!compiled.error.empty()) {
        printError("light: " + input + ": " + compiled.error);
        return kExitInputError;
    }
    const double compileMs = clock.lapMs();
    const LightInput in{&world.brushes, &loaded->entities, world.bounds, input, threads > 1 ? &faces : nullptr};
    const int shadowPose = pointPoseIndex(compiled.onion.poses);
    // --coarse S: the editor's two passes, a coarse one at stride S (the first picture) then
    // every face refined (the full light, the same lightmaps), each timed; then the bounce.
    QJsonObject coarseJson;
    LevelLighting lit = lightLevelInTree(in, compiled.onion, shadowPose, threads, 0, LightPass{coarse});
    const SkyFaces sky(world.brushes, world.bounds);
    const TreeOccluder occluder(compiled.onion, shadowPose, sky);
    if (coarse > 1) {
        const double coarseMs = lit.stats.msLight;
        const size_t coarseRays = lit.stats.rays;
        const RefineStats refined = refineCoarseFaces(lit, occluder, threads);
        lit.stats.rays += refined.rays;
        lit.stats.sampleTests += refined.sampleTests;
        lit.stats.msLight += refined.ms;
        coarseJson = QJsonObject{{"stride", coarse}, {"light_ms", coarseMs}, {"rays", qint64(coarseRays)},
                                 {"refine_ms", refined.ms}, {"refined_faces", qint64(refined.faces)}};
    }
    // The bounce, its receivers narrowed by the PVS of the shadows' tree (--bounce-pvs).
    size_t pairsSkippedByPvs = 0;
    double pvsMs = 0;
    bool pvsUsed = false;
    if (bounces > 0) {
        std::string warning;
        Stopwatch pvsClock;
        const std::optional<TreePvs> pvs =
            pvsForBounce(*pvsMode, compiled.onion, shadowPose, world.brushes, threads, warning);
        pvsMs = pvsClock.lapMs();
        if (!warning.empty()) lit.warnings.push_back(warning);
        std::optional<BouncePvs> narrowing;
        if (pvs) narrowing.emplace(BouncePvs::of(compiled.onion, *pvs));
        pvsUsed = narrowing.has_value();
        pairsSkippedByPvs = addBounce(lit, occluder, bounces, threads, narrowing ? &*narrowing : nullptr).pairsSkippedByPvs;
    }
    // --relight K: a benchmark of relighting after an edit: K lights in turn moved 16 units
    // along x and relit (light/relight.h, timed), then moved back and relit (untimed).
    QJsonObject relightJson;
    if (relights > 0 && !lit.lights.empty()) {
        LightEntities moved{lit.lights, lit.settings, {}};
        double total = 0, worst = 0, coarseTotal = 0;
        size_t faces = 0;
        for (int k = 0; k < relights; ++k) {
            PointLight& light = moved.lights[size_t(k) % moved.lights.size()];
            light.origin.x() += kRelightMove;
            // With --coarse S: the coarse relight (the first picture), then the refinement.
            const RelightStats r = relightChangedLights(lit, moved, occluder, threads, LightPass{coarse});
            const double ms = r.ms + (coarse > 1 ? refineCoarseFaces(lit, occluder, threads).ms : 0.0);
            light.origin.x() -= kRelightMove;
            relightChangedLights(lit, moved, occluder, threads); // back, untimed
            total += ms;
            coarseTotal += r.ms;
            worst = std::max(worst, ms);
            faces += r.faces;
        }
        relightJson = QJsonObject{{"moves", relights},
                                  {"mean_ms", total / relights},
                                  {"max_ms", worst},
                                  {"mean_faces", double(faces) / relights}};
        if (coarse > 1) relightJson["mean_coarse_ms"] = coarseTotal / relights;
    }
    if (!output.empty()) {
        const std::optional<ObspMovers> movers =
            moversToStore(input, loaded->entities, loaded->game, compiled.onion.poses, world.bounds, threads);
        const std::string error =
            saveObspFile(compiled.onion, output, &world.brushes, nullptr, &lit, movers ? &*movers : nullptr);
        if (!error.empty()) {
            printError(error);
            return kExitInputError;
        }
    }
    for (const std::string& w : lit.warnings) std::cerr << "warning: " << w << "\n";
    const LightStats& s = lit.stats;
    QJsonObject out{{"faces", qint64(s.faces)},
                    {"outside_faces", qint64(s.outsideFaces)},
                    {"lightmapped_faces", qint64(s.lightmappedFaces)},
                    {"luxels", qint64(s.luxels)},
                    {"lights", qint64(s.lights)},
                    {"rays", qint64(s.rays)},
                    {"sample_tests", qint64(s.sampleTests)},
                    {"pose", QString::fromStdString(pose.name)},
                    {"threads", threads},
                    {"bounces", bounces},
                    {"bounce_patches", qint64(s.bouncePatches)},
                    {"bounce_rays", qint64(s.bounceRays)},
                    {"bounce_pairs_skipped_by_pvs", qint64(pairsSkippedByPvs)},
                    {"bounce_pvs", !pvsUsed ? "none" : *pvsMode == BouncePvsMode::Full ? "full" : "base"},
                    {"warnings", qint64(lit.warnings.size())}};
    if (stats)
        out["ms"] = QJsonObject{{"parse", loaded->parseMs},     {"compile", compileMs},  {"entities", s.msEntities},
                                {"faces", s.msFaces + facesMs}, {"light", s.msLight},  {"bounce", s.msBounce},
                                {"bounce_pvs", pvsMs}, {"total", loaded->parseMs + total.lapMs()}};
    if (!relightJson.isEmpty()) out["relight"] = relightJson;
    if (!coarseJson.isEmpty()) out["coarse"] = coarseJson;
    if (brushRelights > 0 && !world.brushes.empty())
        out["relight_brush"] =
            brushRelightBenchmark(lit, world, shadowWorld.poses, loaded->entities, input, brushRelights, threads, coarse);
    printJsonLine(out);
    return kExitOk;
}

} // namespace shallot::cli
