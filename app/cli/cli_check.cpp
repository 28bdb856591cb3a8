// shallot-cli check: the level's spawn problems (stuck monsters, items that fall out,
// leaks, unreachable monsters, bad origins) and its movers' (doors that never open, targets
// naming nothing, entities in a mover's way) as JSON lines. See docs/spawn-checks.md and
// docs/movers.md.
#include "cli_common.h"
#include "game_option.h"
#include "document_input.h"
#include "tree_source.h"

#include "check/mover_checks.h"
#include "check/teleport_arrivals.h"
#include "check/spawn_checks.h"
#include "io/fgd_reader.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "movers/build_movers.h"

#include <QJsonDocument>
#include <QJsonValue>
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>


namespace shallot::cli {

namespace {

// Exit codes of `check`: 0 no problem, 1 problems found, 2 the input (or the usage) is bad.
constexpr int kCheckClean = 0;
constexpr int kCheckProblems = 1;
constexpr int kCheckUnreadable = 2;

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// What `check` needs of a level: the world, its entities, a tree when one compiles, and
// the entity definitions a document keeps.
struct Level {
    World world;
    std::vector<SpawnEntity> entities;
    MapFile entityMap; // every entity with its keys and brushes, indices as in the file (the mover checks)
    std::optional<BspTree> tree;
    std::string fgdText, fgdName; // a document's own .fgd
    double loadMs = 0.0, compileMs = 0.0;
};

std::optional<Level> loadLevel(const std::string& path) {
    const auto start = Clock::now();
    Level level;
    if (hasExtension(path, ".shallot")) {
        std::string error;
        std::optional<DocumentInput> document = readDocumentInput(path, error);
        if (!document) {
            printError("check: " + error);
            return std::nullopt;
        }
        level.tree = std::move(document->tree);
        level.world = std::move(document->world);
        level.entities = spawnEntities(document->entities, 1);
        level.entityMap = mapOfDocumentEntities(document->entities, document->game);
        level.fgdText = std::move(document->entityDefinitions);
        level.fgdName = document->entityDefinitionsPath.empty() ? path + " (entity definitions)"
                                                                 : document->entityDefinitionsPath;
    } else {
        const MapReadResult read = readMapFile(path, mapGameOption());
        if (!read.ok()) {
            printError("check: " + read.error.format());
            return std::nullopt;
        }
        for (const MapWarning& w : read.map->warnings)
            std::cerr << path << ":" << w.line << ":" << w.column << ": warning: " << w.message << "\n";
        std::vector<std::string> warnings;
        level.world = worldFromMap(*read.map, {}, &warnings);
        for (const std::string& w : warnings) std::cerr << "warning: " << w << "\n";
        level.entities = spawnEntities(read.map->entities, 0);
        level.entityMap = *read.map;
    }
    level.loadMs = msSince(start);
    if (!level.tree) {
        const auto compileStart = Clock::now();
        CompileResult result = compileWorld(level.world);
        level.compileMs = msSince(compileStart);
        if (!result.error.empty())
            std::cerr << "warning: " << path << ": " << result.error
                      << " (checked against the brushes alone: no leaks, no reach)\n";
        else
            level.tree = std::move(result.onion);
        for (const BrushProblem& p : result.problems) std::cerr << "warning: " << p.message << " (skipped)\n";
    }
    return level;
}

// Reads a .fgd into `classes` (merged over what is there); false when it cannot be read.
bool mergeFgd(const std::string& text, const std::string& name, EntityClassTable& classes) {
    try {
        const FgdFile fgd = readFgd(text, name);
        for (const MapWarning& w : fgd.warnings) std::cerr << "warning: " << w.message << "\n";
        classes.merge(fgd.classes);
        return true;
    } catch (const std::exception& e) {
        printError(std::string("check: ") + e.what());
        return false;
    }
}

QJsonValue jsonBox(const Aabb& box) {
    if (box.empty() || !box.mins.allFinite() || !box.maxs.allFinite()) return QJsonValue::Null;
    return QJsonArray{box.mins.x(), box.mins.y(), box.mins.z(), box.maxs.x(), box.maxs.y(), box.maxs.z()};
}

QJsonObject problemJson(const SpawnProblem& p, const World& world) {
    QJsonArray brushes, entities;
    for (int b : p.brushes) {
        const SourceLocation& s = world.brushes[size_t(b)].source;
        brushes.append(QJsonObject{{"index", b}, {"entity", s.entity}, {"brush", s.brush}, {"line", s.line}});
    }
    for (int e : p.entities) entities.append(e);
    QJsonObject o{{"kind", spawnProblemName(p.kind)},
                  {"entity", p.entity},
                  {"classname", QString::fromStdString(p.classname)},
                  {"origin", toJson(p.origin)},
                  {"pose", p.pose >= 0 ? QJsonValue(QString::fromStdString(world.poses[size_t(p.pose)].name))
                                       : QJsonValue(QJsonValue::Null)},
                  {"box", jsonBox(p.box)},
                  {"message", QString::fromStdString(p.message)},
                  {"brushes", brushes},
                  {"entities", entities}};
    if (p.kind == SpawnProblemKind::MissingTarget) {
        o["key"] = QString::fromStdString(p.targetKey);
        o["target"] = QString::fromStdString(p.targetName);
    }
    if (p.kind == SpawnProblemKind::Leak) {
        QJsonArray path;
        for (const Vec3& v : p.path) path.append(toJson(v));
        o["path"] = path;
        o["hole"] = jsonBox(p.hole); // null when no opening was found
    }
    return o;
}

} // namespace

int runCheck(const std::vector<std::string>& args) {
    std::string input, fgdPath;
    bool stats = false, walking = true, travel = true, inOrder = false;
    // --walk POSE:FIELD: one walking rule of a pose for this run, as a pose key writes it
    // (step=H, drop=H|any, jump=H,L|off, slope=NZ): "does the level work if the player jumps?"
    std::vector<std::pair<std::string, std::string>> walkRules;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--fgd" && i + 1 < args.size()) fgdPath = args[++i];
        else if (a == "--walk" && i + 1 < args.size()) {
            const std::string& rule = args[++i];
            const size_t colon = rule.find(':');
            if (colon == std::string::npos || colon == 0) {
                printError("check: --walk wants POSE:FIELD (step=H, drop=H|any, jump=H,L|off, slope=NZ), not '" + rule + "'");
                return kCheckUnreadable;
            }
            walkRules.emplace_back(rule.substr(0, colon), rule.substr(colon + 1));
        }
        else if (a == "--stats") stats = true;
        else if (a == "--no-walking") walking = false;
        else if (a == "--no-travel") travel = false;
        else if (a == "--travel-in-order") inOrder = true;
        else if (!a.empty() && a[0] != '-' && input.empty()) input = a;
        else {
            printError("check: unexpected argument '" + a + "'");
            return kCheckUnreadable;
        }
    }
    if (input.empty()) {
        printError("check: usage: check MAP|DOC [--fgd FILE] [--stats] [--no-walking] [--no-travel] [--travel-in-order] "
                   "[--walk POSE:FIELD]...");
        return kCheckUnreadable;
    }
    std::optional<Level> level = loadLevel(input);
    if (!level) return kCheckUnreadable;
    for (const auto& [name, field] : walkRules) {
        const auto pose = std::find_if(level->world.poses.begin(), level->world.poses.end(),
                                       [&](const Pose& p) { return p.name == name; });
        if (pose == level->world.poses.end()) {
            printError("check: --walk: the level has no pose '" + name + "'");
            return kCheckUnreadable;
        }
        if (!applyNavSettingsField(field, pose->nav)) {
            printError("check: --walk " + name + ":" + field + ": a field is step=H, drop=H|any, jump=H,L|off or slope=NZ "
                       "(lengths >= 0, a slope in (0, 1])");
            return kCheckUnreadable;
        }
    }

    EntityClassTable classes = EntityClassTable::quake();
    if (!level->fgdText.empty() && !mergeFgd(level->fgdText, level->fgdName, classes)) return kCheckUnreadable;
    if (!fgdPath.empty()) {
        std::ifstream in(fgdPath, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        if (!in) {
            printError("check: cannot read '" + fgdPath + "'");
            return kCheckUnreadable;
        }
        if (!mergeFgd(text.str(), fgdPath, classes)) return kCheckUnreadable;
    }

    SpawnCheckInput in;
    in.world = &level->world;
    in.onion = level->tree ? &*level->tree : nullptr;
    in.classes = &classes;
    in.entities = std::move(level->entities);
    in.walking = walking;
    // The player's reach in the walking check goes through doors, lifts, trains and
    // teleporters (movers/travel.h) unless --no-travel (the check as it was before them);
    // a door or ride opens when anything fires it, or with --travel-in-order only once the
    // player has reached what fires it.
    std::optional<TravelLevel> travelLevel;
    if (travel) {
        travelLevel = travelLevelOf(level->entityMap);
        addLiquidsAndLadders(*travelLevel, level->world); // the player's swims and climbs
    }
    in.travel = travelLevel ? &*travelLevel : nullptr;
    in.travelInOrder = inOrder; // doors open only once the player reaches what fires them
    const auto start = Clock::now();
    std::vector<SpawnProblem> problems = checkSpawns(in);
    const double checkMs = msSince(start);
    const auto moversStart = Clock::now();
    const LevelMovers movers = buildMovers(level->entityMap);
    const EntityGraph graph = buildEntityGraph(level->entityMap);
    mergeProblems(problems, checkMovers({&level->entityMap, &movers, &graph, &classes}));
    if (level->tree) // where teleporters set the player down
        mergeProblems(problems, checkTeleportArrivals(*level->tree, level->entityMap, graph, &classes));
    const double moversMs = msSince(moversStart);

    std::map<std::string, int> counts;
    for (const char* kind : {"stuck", "fell_out", "leak", "unreachable", "bad_origin", "unreachable_walking", "never_opens",
                             "missing_target", "blocked", "bad_mover"})
        counts[kind] = 0;
    for (const SpawnProblem& p : problems) {
        printJsonLine(problemJson(p, level->world));
        ++counts[spawnProblemName(p.kind)];
    }
    std::fflush(stdout);
    if (stats) {
        QJsonObject perKind;
        for (const auto& [kind, n] : counts) perKind[QString::fromStdString(kind)] = n;
        const QJsonObject ms{{"load", level->loadMs}, {"compile", level->compileMs}, {"check", checkMs}, {"movers", moversMs}};
        const QJsonObject summary{{"entities", qint64(in.entities.size())},
                                  {"problems", perKind},
                                  {"tree", in.onion != nullptr},
                                  {"ms", ms}};
        const QByteArray bytes = QJsonDocument(summary).toJson(QJsonDocument::Compact);
        std::cerr << bytes.toStdString() << "\n";
    }
    return problems.empty() ? kCheckClean : kCheckProblems;
}

} // namespace shallot::cli
