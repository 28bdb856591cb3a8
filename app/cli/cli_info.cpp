#include "cli_common.h"

#include "io/obsp_format.h"
#include "io/tree_text_dump.h"

#include <iostream>

namespace shallot::cli {

namespace {

std::optional<BspTree> loadTree(const std::vector<std::string>& args, const char* command, ObspInfo* info) {
    if (args.size() != 1) {
        printError(std::string(command) + ": expected one TREE.obsp argument");
        return std::nullopt;
    }
    ObspReadResult r = readObspFile(args[0]);
    if (!r.tree) {
        printError(args[0] + ": " + r.error);
        return std::nullopt;
    }
    if (info) *info = r.info;
    return std::move(r.tree);
}

} // namespace

int runInfo(const std::vector<std::string>& args) {
    ObspInfo info;
    const std::optional<BspTree> tree = loadTree(args, "info", &info);
    if (!tree) return kExitInputError;
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
                              {"bounds", QJsonObject{{"mins", toJson(tree->bounds.mins)}, {"maxs", toJson(tree->bounds.maxs)}}}});
    return kExitOk;
}

int runDump(const std::vector<std::string>& args) {
    const std::optional<BspTree> tree = loadTree(args, "dump", nullptr);
    if (!tree) return kExitInputError;
    dumpTreeText(*tree, std::cout);
    return kExitOk;
}

} // namespace shallot::cli
