// shallot-cli simulate: many agents walking the level at once (core/objects/
// agent_simulation.h), and the collision seed's table of what each broad-phase stage
// settled and what it cost.
#include "cli_common.h"
#include "level_objects_source.h"
#include "tree_source.h"

#include "objects/agent_simulation.h"

#include <QJsonArray>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace shallot::cli {

namespace {

// Agents and simulated seconds are at most these (a typo must not run for a day).
constexpr int kMaxAgents = 1000000;
constexpr double kMaxSeconds = 3600.0;
constexpr int kMaxThreads = 256;

bool parseWhole(const std::string& text, double& out) {
    const char* end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, out);
    return error == std::errc() && ptr == end && !text.empty() && std::isfinite(out);
}

QJsonObject stageJson(const StageCounts& c) {
    QJsonArray stages;
    for (int s = 0; s < kCollisionStages; ++s)
        stages.append(QJsonObject{{"stage", collisionStageName(CollisionStage(s))},
                                  {"tested", qint64(c.tested[size_t(s)])},
                                  {"settled", qint64(c.settled[size_t(s)])},
                                  {"mean_us", 1e6 * c.meanSeconds(CollisionStage(s))}});
    return QJsonObject{{"queries", qint64(c.queries)},
                       {"pairs", qint64(c.pairs)},
                       {"stages", stages},
                       {"exact_hits", qint64(c.exactHits)},
                       {"world_queries", qint64(c.worldQueries)},
                       {"world_mean_us", 1e6 * c.worldMeanSeconds()}};
}

void printStages(const char* title, const StageCounts& c) {
    std::printf("%s: %llu queries facing %llu pairs\n", title, (unsigned long long)c.queries, (unsigned long long)c.pairs);
    std::printf("  %-18s %16s %16s %12s\n", "stage", "tested", "settled", "mean time");
    for (int s = 0; s < kCollisionStages; ++s) {
        const double mean = 1e6 * c.meanSeconds(CollisionStage(s));
        std::printf("  %-18s %16llu %16llu %9.4f us\n", collisionStageName(CollisionStage(s)),
                    (unsigned long long)c.tested[size_t(s)], (unsigned long long)c.settled[size_t(s)], mean);
    }
    std::printf("  (exact tests that touched: %llu)\n", (unsigned long long)c.exactHits);
    if (c.worldQueries)
        std::printf("  %-18s %16llu %16s %9.4f us\n", "world tree", (unsigned long long)c.worldQueries, "-",
                    1e6 * c.worldMeanSeconds());
}

} // namespace

int runSimulate(const std::vector<std::string>& args) {
    std::string input;
    SimulationOptions options;
    double seconds = 10.0;
    bool json = false;
    bool fired = false; // the movers rest until fired (mover_firing.h) instead of cycling
    std::vector<std::string> poseNames;
    auto usage = [] {
        printError("simulate: usage: simulate MAP --agents N --seconds S [--seed K] [--threads T] [--pose NAME]... [--fired] [--seek SHARE] [--json]");
        return kExitUsage;
    };
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool hasValue = i + 1 < args.size();
        double v = 0;
        if (a == "--agents" && hasValue) {
            if (!parseWhole(args[++i], v) || v < 0 || v > kMaxAgents || v != std::floor(v)) {
                printError("simulate: --agents must be a whole number from 0 to " + std::to_string(kMaxAgents));
                return kExitUsage;
            }
            options.agents = int(v);
        } else if (a == "--seconds" && hasValue) {
            if (!parseWhole(args[++i], v) || v < 0 || v > kMaxSeconds) {
                printError("simulate: --seconds must be a number from 0 to " + std::to_string(int(kMaxSeconds)));
                return kExitUsage;
            }
            seconds = v;
        } else if (a == "--seed" && hasValue) {
            if (!parseWhole(args[++i], v) || v < 0 || v != std::floor(v) || v > 9e15) {
                printError("simulate: --seed must be a whole number >= 0");
                return kExitUsage;
            }
            options.seed = uint64_t(v);
        } else if (a == "--threads" && hasValue) {
            if (!parseWhole(args[++i], v) || v < 1 || v > kMaxThreads || v != std::floor(v)) {
                printError("simulate: --threads must be a whole number from 1 to " + std::to_string(kMaxThreads));
                return kExitUsage;
            }
            options.threads = int(v);
        } else if (a == "--pose" && hasValue) {
            poseNames.push_back(args[++i]);
        } else if (a == "--json") {
            json = true;
        } else if (a == "--fired") {
            fired = true;
        } else if (a == "--seek" && hasValue) {
            if (!parseWhole(args[++i], v) || !(v >= 0 && v <= 1)) {
                printError("simulate: --seek must be a share from 0 to 1");
                return kExitUsage;
            }
            options.seekShare = v;
        } else if (!a.empty() && a[0] != '-' && input.empty()) {
            input = a;
        } else {
            return usage();
        }
    }
    if (input.empty()) return usage();
    std::string loadError;
    const std::optional<TreeAndWorld> loaded = loadTreeAndWorldFrom(input, loadError);
    if (!loaded) {
        printError("simulate: " + loadError);
        return kExitInputError;
    }
    const BspTree& tree = loaded->tree;
    for (const std::string& name : poseNames) {
        const int pose = tree.poseIndex(name);
        if (pose < 0) {
            printError("simulate: " + input + " has no pose '" + name + "'");
            return kExitUsage;
        }
        options.poses.push_back(pose);
    }
    // The level's movers as objects at their spawn places, running by their timing, or
    // with --fired as the game fires them; its teleporters either way.
    const std::shared_ptr<const LevelObjects> level = loadLevelObjects(input, *loaded, options.threads);
    std::optional<FiringRules> firing;
    std::vector<Aabb> places; // what --seek's agents go to
    CollisionScene scene(tree, level ? level->pointers() : std::vector<const CollisionObject*>{});
    if (level) {
        const std::vector<Vec3> offsets = level->offsets();
        for (size_t i = 0; i < offsets.size(); ++i) scene.setObjectOffset(i, offsets[i]);
        scene.rebuildGrid();
        options.movers = &level->movers.movers;
        firing = loadFiringRules(*loaded, level->movers);
        options.teleports = &firing->teleports;
        if (fired) options.firing = &*firing;
        places = workingPlaces(level->movers.movers, *firing);
        options.seekPlaces = &places;
    }
    AgentSimulation simulation(scene, options);
    const int steps = int(std::lround(seconds / options.stepSeconds));
    for (int s = 0; s < steps; ++s) simulation.step();
    const SimulationReport& r = simulation.report();
    const double stepsPerSecond = r.stepSeconds > 0.0 ? r.steps / r.stepSeconds : 0.0;
    QStringList names;
    for (size_t p = 0; p < tree.poses.size(); ++p) {
        int count = 0;
        for (const int pose : simulation.poses()) count += pose == int(p);
        if (count) names.append(QString("%1 %2").arg(count).arg(QString::fromStdString(tree.poses[p].name)));
    }
    if (json) {
        printJsonLine(QJsonObject{{"agents", r.agents},
                                  {"agents_asked", options.agents},
                                  {"poses", names.join(", ")},
                                  {"steps", r.steps},
                                  {"step_seconds", options.stepSeconds},
                                  {"threads", options.threads},
                                  {"steps_per_second", stepsPerSecond},
                                  {"wall_seconds", r.stepSeconds},
                                  {"cpu_seconds", r.cpuSeconds},
                                  {"path_seconds", r.pathSeconds},
                                  {"nav_seconds", r.navSeconds},
                                  {"paths_found", qint64(r.pathsFound)},
                                  {"paths_missed", qint64(r.pathsMissed)},
                                  {"goals_reached", qint64(r.goalsReached)},
                                  {"stuck", qint64(r.stuck)},
                                  {"put_back", qint64(r.putBack)},
                                  {"objects", QString::fromStdString(level ? describeMovers(level->movers) : "none")},
                                  {"object_moves", qint64(r.objectMoves)},
                                  {"objects_blocked", qint64(r.objectsBlocked)},
                                  {"agents_pushed", qint64(r.agentsPushed)},
                                  {"fired", fired},
                                  {"seek", options.seekShare},
                                  {"mover_trips", qint64(r.moverTrips)},
                                  {"firings", qint64(r.firings)},
                                  {"keys_picked_up", qint64(r.keysPickedUp)},
                                  {"keys_used", qint64(r.keysUsed)},
                                  {"teleported", qint64(r.teleported)},
                                  {"teleports_refused", qint64(r.teleportsRefused)},
                                  {"moves", stageJson(r.moves)},
                                  {"colliding", stageJson(r.colliding)}});
        return kExitOk;
    }
    std::printf("simulate %s: %d agents (%s; %d asked), %d steps of %.4f s on %d threads\n", input.c_str(), r.agents,
                names.join(", ").toStdString().c_str(), options.agents, r.steps, options.stepSeconds, options.threads);
    std::printf("objects: %s; object steps %llu moved, %llu blocked by agents; agents carried or pushed %llu\n",
                level ? describeMovers(level->movers).c_str() : "none", (unsigned long long)r.objectMoves,
                (unsigned long long)r.objectsBlocked, (unsigned long long)r.agentsPushed);
    if (fired)
        std::printf("fired as the game fires them: %llu mover trips begun, %llu firings of targets; keys picked up %llu, used %llu\n",
                    (unsigned long long)r.moverTrips, (unsigned long long)r.firings, (unsigned long long)r.keysPickedUp,
                    (unsigned long long)r.keysUsed);
    if (firing && !firing->teleports.empty())
        std::printf("teleporters: %zu; agents teleported %llu, refused %llu (no room at the destination)\n",
                    firing->teleports.size(), (unsigned long long)r.teleported, (unsigned long long)r.teleportsRefused);
    printStages("moves (walk and fall: world, objects, agents)", r.moves);
    printStages("Colliding(entity) after each step", r.colliding);
    std::printf("steps per second: %.1f (%.3f s for %d steps; finding paths %.3f s of thread time)\n", stepsPerSecond,
                r.stepSeconds, r.steps, r.pathSeconds);
    std::printf("processor time: %.3f s, %.2f ms per step (all threads)\n", r.cpuSeconds,
                r.steps ? 1e3 * r.cpuSeconds / r.steps : 0.0);
    std::printf("paths: %llu found, %llu missed; goals reached %llu, stuck %llu; moves put back %llu; nav meshes %.3f s\n",
                (unsigned long long)r.pathsFound, (unsigned long long)r.pathsMissed, (unsigned long long)r.goalsReached,
                (unsigned long long)r.stuck, (unsigned long long)r.putBack, r.navSeconds);
    return kExitOk;
}

} // namespace shallot::cli
