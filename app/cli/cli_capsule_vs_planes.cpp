// shallot-cli bench --capsule-vs-planes: where Quake 3's capsule (its brush planes moved
// out by the capsule's reach) refuses places the exact capsule fits
// (query/shifted_plane_comparison.h; docs/round_poses.md).
#include "cli_common.h"
#include "query/shifted_plane_comparison.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace shallot::cli {

namespace {

// Quake 3's player: 30 units across, 56 tall (its box, bg_public.h's mins/maxs, as a capsule).
const char* kDefaultQuake3Capsule = "q3player=capsule:15,56";

QJsonObject tallyJson(const ShiftedPlaneTally& t, double radius) {
    return {{"places", t.places},
            {"refused", t.refused},
            {"share", t.share()},
            {"median_depth", t.medianDepth},
            {"max_depth", t.maxDepth},
            {"max_depth_of_radius", radius > 0 ? t.maxDepth / radius : 0.0},
            {"median_room", t.medianRoom},
            {"max_room", t.maxRoom}};
}

} // namespace

int runCapsuleVsPlanes(const std::vector<std::string>& args) {
    std::vector<std::string> maps;
    std::vector<std::string> poseTexts;
    ShiftedPlaneComparisonSettings settings;
    bool json = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const bool hasValue = i + 1 < args.size();
        if (args[i] == "--capsule-vs-planes") continue;
        if (args[i] == "--pose" && hasValue) poseTexts.push_back(args[++i]);
        else if (args[i] == "--samples" && hasValue) settings.samples = std::max(1, std::atoi(args[++i].c_str()));
        else if (args[i] == "--seed" && hasValue) settings.seed = std::strtoull(args[++i].c_str(), nullptr, 10);
        else if (args[i] == "--json") json = true;
        else if (args[i].starts_with("--")) {
            printError("bench --capsule-vs-planes: unknown option " + args[i]);
            return kExitUsage;
        } else maps.push_back(args[i]);
    }
    if (maps.empty()) {
        printError("bench --capsule-vs-planes: give one or more .map files");
        return kExitUsage;
    }
    if (poseTexts.empty()) poseTexts.push_back(kDefaultQuake3Capsule);
    std::vector<Pose> poses;
    for (const std::string& text : poseTexts) {
        std::string error;
        std::optional<Pose> pose = parsePoseArgument(text, error);
        if (!pose || !pose->shape.isRound()) {
            printError("bench --capsule-vs-planes: --pose " + text + ": " + (pose ? "give a round pose" : error));
            return kExitUsage;
        }
        poses.push_back(*pose);
    }
    if (!json)
        std::printf("%-22s %-15s %7s | %7s %7s %6s %6s %6s | %7s %7s %6s %6s\n", "map", "pose", "brushes", "beside",
                    "refused", "depth", "room", "max", "resting", "refused", "depth", "max");
    for (const std::string& path : maps) {
        std::optional<LoadedWorld> loaded = loadWorld(path);
        if (!loaded) return kExitInputError;
        const std::string name = path.substr(path.find_last_of('/') + 1);
        for (const Pose& pose : poses) {
            const auto start = std::chrono::steady_clock::now();
            const ShiftedPlaneComparison c = compareShiftedPlanes(loaded->world, pose, settings);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (json) {
                printJsonLine({{"map", QString::fromStdString(name)},
                               {"pose", QString::fromStdString(pose.name + "=" + poseShapeText(pose.shape))},
                               {"brushes", c.blockingBrushes},
                               {"samples", settings.samples},
                               {"beside", tallyJson(c.beside, pose.shape.radius)},
                               {"resting", tallyJson(c.resting, pose.shape.radius)},
                               {"superset_violations", c.supersetViolations},
                               {"seconds", seconds}});
                continue;
            }
            std::printf("%-22s %-15s %7d | %7d %6.2f%% %6.2f %6.2f %6.2f | %7d %6.2f%% %6.2f %6.2f\n", name.c_str(),
                        poseShapeText(pose.shape).c_str(), c.blockingBrushes, c.beside.places, 100 * c.beside.share(),
                        c.beside.medianDepth, c.beside.medianRoom, c.beside.maxRoom, c.resting.places,
                        100 * c.resting.share(), c.resting.medianDepth, c.resting.maxDepth);
            if (c.supersetViolations)
                std::printf("  %d places the moved planes let go overlap a brush (a defect)\n", c.supersetViolations);
        }
    }
    return kExitOk;
}

} // namespace shallot::cli
