// shallot-cli nav: where an agent in one pose can walk (core/nav): the walkable surfaces'
// area, polygon and link counts and connected components, under the pose's own walking
// rules (Pose::nav) or the flags' changes to them.
#include "bench_workloads.h"
#include "cli_common.h"
#include "query_path.h"
#include "tree_source.h"

#include "compile/stopwatch.h"
#include "nav/nav_mesh.h"
#include "nav/nav_path.h"

#include <QJsonArray>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>

namespace shallot::cli {

namespace {

struct PathTimes {
    double medianUs = 0, medianFoundUs = 0, foundShare = 0;
};

// Median microseconds of `count` path queries between random places on the walkable
// polygons (each polygon by its area), of those found, and the share found.
PathTimes timePaths(const BspTree& tree, const NavMesh& mesh, int count) {
    std::mt19937_64 rng(32);
    std::vector<double> weights;
    for (const NavPolygon& p : mesh.polygons) weights.push_back(p.area);
    std::discrete_distribution<size_t> pick(weights.begin(), weights.end());
    auto place = [&] {
        const NavPolygon& p = mesh.polygons[pick(rng)];
        // A random point of the triangle fan, 1 unit up.
        const size_t k = 1 + rng() % (p.vertices.size() - 2);
        double a = std::uniform_real_distribution<double>(0, 1)(rng), b = std::uniform_real_distribution<double>(0, 1)(rng);
        if (a + b > 1) a = 1 - a, b = 1 - b;
        const Vec3 v = p.vertices[0] + a * (p.vertices[k] - p.vertices[0]) + b * (p.vertices[k + 1] - p.vertices[0]);
        return Vec3(v + Vec3::UnitZ());
    };
    std::vector<double> micros, foundMicros;
    for (int i = 0; i < count; ++i) {
        const Vec3 from = place(), to = place();
        Stopwatch watch;
        const bool found = findPath(tree, mesh, from, to).found;
        micros.push_back(watch.lapMs() * 1000);
        if (found) foundMicros.push_back(micros.back());
    }
    return {median(micros), median(foundMicros), double(foundMicros.size()) / count};
}

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

// "ground normal z >= 0.7, step 18, drops of any height, no jumps".
std::string rulesText(const NavSettings& s) {
    std::string out = "ground normal z >= " + number(s.walkableNormalZ) + ", step " + number(s.stepHeight) + ", drops of " +
                      (std::isinf(s.maxDrop) ? std::string("any height") : "up to " + number(s.maxDrop));
    return out + (s.jump ? ", jumps " + number(s.jumpHeight) + " up and " + number(s.jumpLength) + " across" : ", no jumps");
}

} // namespace

int runNav(const std::vector<std::string>& args) {
    std::string input, poseName;
    bool json = false;
    int paths = 0;
    NavOverrides overrides;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::string flagError;
        if (const int read = readNavFlag(args, i, overrides, flagError); read != 0) {
            if (read > 0) continue;
            printError("nav: " + flagError);
            return kExitUsage;
        }
        if (a == "--pose" && i + 1 < args.size()) poseName = args[++i];
        else if (a == "--json") json = true;
        else if (a == "--paths" && i + 1 < args.size()) paths = std::max(0, std::atoi(args[++i].c_str()));
        else if (!a.empty() && a[0] != '-' && input.empty()) input = a;
        else {
            printError("nav: unexpected argument '" + a + "'");
            return kExitUsage;
        }
    }
    if (input.empty() || poseName.empty()) {
        printError("nav: usage: nav TREE --pose NAME [--step H] [--drop H|any] [--jump H,L | --no-jump] [--slope NZ] "
                   "[--json] [--paths N]");
        return kExitUsage;
    }
    // The pose's own walking rules (the world's pose where there is a world: a .shallot's
    // stored tree may come from before they were set), then the flags.
    std::string loadError;
    std::optional<TreeAndWorld> loaded = loadTreeAndWorldFrom(input, loadError);
    if (!loaded) {
        printError("nav: " + loadError);
        return kExitInputError;
    }
    const BspTree& tree = loaded->tree;
    const int pose = tree.poseIndex(poseName);
    if (pose < 0) {
        printError("nav: " + input + " has no pose '" + poseName + "'");
        return kExitUsage;
    }
    NavSettings settings = tree.poses[size_t(pose)].nav;
    if (loaded->world)
        for (const Pose& p : loaded->world->poses)
            if (p.name == poseName) settings = p.nav;
    settings = overrides.applied(settings);
    Stopwatch watch;
    const NavMesh mesh = buildNavMesh(tree, pose, settings);
    const double ms = watch.lapMs();
    PathTimes pathTimes;
    if (paths > 0 && !mesh.polygons.empty()) pathTimes = timePaths(tree, mesh, paths);
    // The components by size, largest first.
    std::map<int32_t, std::pair<int64_t, double>> components; // component -> (polygons, area)
    for (const NavPolygon& p : mesh.polygons) {
        auto& c = components[p.component];
        ++c.first;
        c.second += p.area;
    }
    std::vector<std::pair<int64_t, double>> sizes; // (polygons, area)
    for (const auto& [id, size] : components) sizes.push_back(size);
    std::sort(sizes.begin(), sizes.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    const size_t walk = mesh.linkCount(NavLinkKind::Walk), up = mesh.linkCount(NavLinkKind::StepUp),
                 down = mesh.linkCount(NavLinkKind::StepDown), drop = mesh.linkCount(NavLinkKind::Drop),
                 jump = mesh.linkCount(NavLinkKind::Jump);
    if (json) {
        QJsonArray largest;
        for (size_t i = 0; i < sizes.size() && i < 10; ++i)
            largest.append(QJsonObject{{"polygons", qint64(sizes[i].first)}, {"area", sizes[i].second}});
        printJsonLine(QJsonObject{{"pose", QString::fromStdString(poseName)},
                                  {"polygons", qint64(mesh.polygons.size())},
                                  {"surfaces", mesh.surfaceCount},
                                  {"area", mesh.area},
                                  {"links", QJsonObject{{"walk", qint64(walk)}, {"step_up", qint64(up)},
                                                        {"step_down", qint64(down)}, {"drop", qint64(drop)},
                                                        {"jump", qint64(jump)}}},
                                  {"components", mesh.componentCount},
                                  {"largest_components", largest},
                                  {"settings", navSettingsJson(settings)},
                                  {"ms", ms}});
        if (paths > 0) {
            QJsonObject line{{"paths", paths}, {"median_path_us", pathTimes.medianUs},
                             {"median_found_path_us", pathTimes.medianFoundUs}, {"found_share", pathTimes.foundShare}};
            printJsonLine(line);
        }
        return kExitOk;
    }
    std::printf("pose %s: %zu walkable polygons in %d surfaces, area %.0f square units\n", poseName.c_str(),
                mesh.polygons.size(), mesh.surfaceCount, mesh.area);
    std::printf("links: %zu walk, %zu step up, %zu step down, %zu drop", walk, up, down, drop);
    if (settings.jump) std::printf(", %zu jump", jump);
    std::printf("\n");
    std::printf("%d connected components (walks and steps)", mesh.componentCount);
    if (!sizes.empty()) std::printf(", the largest %.0f square units in %lld polygons", sizes[0].second, (long long)sizes[0].first);
    std::printf("\nbuilt in %.1f ms\n", ms);
    std::printf("rules: %s\n", rulesText(settings).c_str());
    if (paths > 0)
        std::printf("%d paths between random places: median %.1f us (%.1f us for those found), %.0f%% found\n", paths,
                    pathTimes.medianUs, pathTimes.medianFoundUs, 100 * pathTimes.foundShare);
    return kExitOk;
}

} // namespace shallot::cli
