#include "cli_common.h"
#include "level_objects_source.h"

#include "io/game_profile.h"
#include "io/obsp_format.h"
#include "objects/obsp_movers.h"
#include "io/tree_text_dump.h"

#include <iostream>

namespace shallot::cli {

namespace {

std::optional<ObspReadResult> loadTree(const std::vector<std::string>& args, const char* command) {
    if (args.size() != 1) {
        printError(std::string(command) + ": expected one TREE.obsp argument");
        return std::nullopt;
    }
    ObspReadResult r = readObspFile(args[0]);
    if (!r.tree) {
        printError(args[0] + ": " + r.error);
        return std::nullopt;
    }
    return r;
}

// The stored PVS (shallot-cli vis): its pose and figures; null when the file has none; the
// error when its section is damaged.
QJsonValue pvsJson(const ObspReadResult& r) {
    if (!r.pvsError.empty()) return QJsonObject{{"error", QString::fromStdString(r.pvsError)}};
    if (!r.pvs) return QJsonValue::Null;
    const TreePvs& p = *r.pvs;
    return QJsonObject{{"pose", QString::fromStdString(r.tree->poses[size_t(p.pose)].name)},
                       {"flow", p.figures.fullFlow ? "full" : "base"},
                       {"leaks", p.figures.leaks},
                       {"clusters", qint64(p.clusterCount())},
                       {"average_visible", p.figures.averageVisible},
                       {"largest_visible", qint64(p.figures.largestVisible)},
                       {"ms", p.figures.ms}};
}

// The stored lightmaps (shallot-cli light -o): counts; null when the file has none; the
// error when their section is damaged.
QJsonValue lightmapsJson(const ObspReadResult& r) {
    if (!r.lightingError.empty()) return QJsonObject{{"error", QString::fromStdString(r.lightingError)}};
    if (!r.lighting) return QJsonValue::Null;
    const LightStats& s = r.lighting->stats;
    return QJsonObject{{"faces", qint64(s.faces)},
                       {"lightmapped_faces", qint64(s.lightmappedFaces)},
                       {"outside_faces", qint64(s.outsideFaces)},
                       {"luxels", qint64(s.luxels)}};
}

// The stored movers (shallot-cli compile -o of a .map): their kinds and the entities
// kept; null when the file has none.
QJsonValue moversJson(const ObspReadResult& r) {
    if (!r.movers) return QJsonValue::Null;
    return QJsonObject{{"objects", qint64(r.movers->level.objects.size())},
                       {"kinds", QString::fromStdString(describeMovers(r.movers->level.movers))},
                       {"entities", qint64(r.movers->entities.entities.size())},
                       {"game", gameName(r.movers->entities.game)}};
}

} // namespace

int runInfo(const std::vector<std::string>& args) {
    const std::optional<ObspReadResult> read = loadTree(args, "info");
    if (!read) return kExitInputError;
    const ObspInfo& info = read->info;
    const std::optional<BspTree>& tree = read->tree;
    if (!read->pvsError.empty()) std::cerr << "warning: " << args[0] << ": " << read->pvsError << " (no PVS)\n";
    QJsonArray poses;
    for (const Pose& p : tree->poses)
        poses.append(QJsonObject{{"name", QString::fromStdString(p.name)}, {"mins", toJson(p.mins)}, {"maxs", toJson(p.maxs)}});
    printJsonLine(QJsonObject{{"version", qint64(info.version)},
                              {"poses", poses},
                              {"nodes", qint64(tree->nodes.size())},
                              {"leaves", qint64(tree->leafCount())},
                              {"planes", qint64(tree->planes.size())},
                              {"polygons", qint64(tree->polygons.size())},
                              {"depth", tree->depth()},
                              {"bounds", QJsonObject{{"mins", toJson(tree->bounds.mins)}, {"maxs", toJson(tree->bounds.maxs)}}},
                              {"pvs", pvsJson(*read)},
                              {"lightmaps", lightmapsJson(*read)},
                              {"movers", moversJson(*read)}});
    return kExitOk;
}

int runDump(const std::vector<std::string>& args) {
    const std::optional<ObspReadResult> read = loadTree(args, "dump");
    if (!read) return kExitInputError;
    dumpTreeText(*read->tree, std::cout);
    return kExitOk;
}

} // namespace shallot::cli
