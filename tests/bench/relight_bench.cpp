// How long relighting takes after one light moves (issue 41, "Live": under 100 ms on
// id_e1m1), against a full lighting of the same level (docs/lighting.md). A program, not a
// test: it times things.
//   relight_bench [MAP] [--moves N] [--threads T]
// Lights the level once, then moves N of its plain lights (no target, no targetname) one at
// a time by 32 units along x and relights only where the light reaches (light_relight.h),
// checking each relight against a full lighting (byte for byte) and timing both.
#include "compile/compiler.h"
#include "compile/stopwatch.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "light/light_relight.h"
#include "light/tree_lighting.h"
#include "light/tree_occluder.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

using namespace shallot;

namespace {

bool sameLight(const LevelLighting& a, const LevelLighting& b) {
    if (a.lightmaps.size() != b.lightmaps.size()) return false;
    for (size_t f = 0; f < a.lightmaps.size(); ++f) {
        if (a.lightmaps[f].styles.size() != b.lightmaps[f].styles.size()) return false;
        for (size_t s = 0; s < a.lightmaps[f].styles.size(); ++s)
            if (a.lightmaps[f].styles[s].light != b.lightmaps[f].styles[s].light) return false;
    }
    return true;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    std::string path = std::string(SHALLOT_SOURCE_DIR) + "/../shared/maps/id_e1m1.map";
    int moves = 10, threads = 2;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--moves" && i + 1 < argc) moves = std::max(1, std::atoi(argv[++i]));
        else if (a == "--threads" && i + 1 < argc) threads = std::max(1, std::atoi(argv[++i]));
        else path = a;
    }
    const MapReadResult read = readMapFile(path);
    if (!read.ok()) {
        std::cerr << read.error.format() << "\n";
        return 1;
    }
    const World world = worldFromMap(*read.map);
    CompileOptions options;
    options.threads = threads;
    const CompileResult compiled = compileWorld(world, options);
    const int pose = pointPoseIndex(world.poses);
    if (!compiled.error.empty() || pose < 0) {
        std::cerr << "cannot compile " << path << " with a point pose\n";
        return 1;
    }
    const SkyFaces sky(world.brushes, world.bounds);
    const TreeOccluder occluder(compiled.onion, pose, sky);
    std::vector<MapEntity> entities = read.map->entities;
    const auto full = [&](const std::vector<MapEntity>& e) {
        return lightLevelInTree({&world.brushes, &e, world.bounds, path}, compiled.onion, pose, threads);
    };
    Stopwatch clock;
    LevelLighting lit = full(entities);
    const double firstMs = clock.lapMs();
    std::vector<size_t> plain;
    for (size_t i = 1; i < entities.size(); ++i)
        if (entities[i].classname().rfind("light", 0) == 0 && !entities[i].value("target") && !entities[i].value("targetname") &&
            entities[i].origin())
            plain.push_back(i);
    std::vector<double> relightMs, fullMs, faces;
    bool allSame = true;
    for (int m = 0; m < moves && !plain.empty(); ++m) {
        std::vector<MapEntity> next = entities;
        MapEntity& moved = next[plain[size_t(m) * 7919 % plain.size()]];
        const Vec3 o = *moved.origin() + Vec3(32, 0, 0);
        std::ostringstream text;
        text << o.x() << " " << o.y() << " " << o.z();
        for (auto& [key, value] : moved.keys)
            if (key == "origin") value = text.str();
        clock.lapMs();
        const RelightPlan plan = planRelight(entities, next, path);
        size_t relit = 0;
        LevelLighting incremental = relightChangedLights(lit, plan, next, path, occluder, threads, &relit);
        relightMs.push_back(clock.lapMs());
        lit = full(next);
        fullMs.push_back(clock.lapMs());
        faces.push_back(double(relit));
        allSame = allSame && !plan.full && sameLight(incremental, lit);
        entities = std::move(next);
    }
    std::printf("{\"map\":\"%s\",\"threads\":%d,\"lights\":%zu,\"faces\":%zu,\"first_light_ms\":%.1f,\"moves\":%zu,"
                "\"relight_ms_median\":%.1f,\"relight_ms_max\":%.1f,\"full_ms_median\":%.1f,\"relit_faces_median\":%.0f,"
                "\"same_as_full\":%s}\n",
                path.substr(path.find_last_of('/') + 1).c_str(), threads, lit.stats.lights, lit.stats.lightmappedFaces, firstMs,
                relightMs.size(), median(relightMs), relightMs.empty() ? 0.0 : *std::max_element(relightMs.begin(), relightMs.end()),
                median(fullMs), median(faces), allSame ? "true" : "false");
    return allSame ? 0 : 1;
}
