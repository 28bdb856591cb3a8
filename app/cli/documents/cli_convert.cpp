// shallot-cli convert IN OUT: between .map and .shallot, and from meshes (Assimp) to either.
#include "cli_common.h"
#include "game_option.h"
#include "tree_source.h"

#include "io/map_reader.h"
#include "io/map_writer.h"
#include "io/mesh_import.h"
#include "io/shallot_document.h"

#include <QSaveFile>
#include <iostream>

namespace shallot::cli {

namespace {

// What the input gives: a document, plus a .shallot's stored tree and thumbnail.
struct Input {
    DocumentData doc;
    SaveOptions extras;
    std::optional<BspTree> tree;
};

std::optional<Input> readMapInput(const std::string& path) {
    const MapReadResult read = readMapFile(path, mapGameOption());
    if (!read.ok()) {
        printError(read.error.format());
        return std::nullopt;
    }
    for (const MapWarning& w : read.map->warnings) std::cerr << "warning: " << w.message << "\n";
    std::vector<std::string> warnings;
    Input in{documentFromMap(*read.map, &warnings), {}, {}};
    for (const std::string& w : warnings) std::cerr << "warning: " << w << "\n";
    return in;
}

std::optional<Input> readShallotInput(const std::string& path) {
    ShallotLoadResult read = loadShallot(QString::fromStdString(path));
    if (!read.ok()) {
        printError(read.error.toStdString());
        return std::nullopt;
    }
    LoadedShallot& loaded = *read.loaded;
    Input in{std::move(loaded.doc), {}, std::move(loaded.tree)};
    in.extras.treeInputHash = loaded.treeHash; // kept as it was, current or stale
    in.extras.thumbnail = loaded.thumbnail;
    return in;
}

std::optional<Input> readMeshInput(const std::string& path, const MeshImportOptions& options) {
    const MeshImportResult imported = importMeshBrushes(path, options);
    for (const std::string& w : imported.warnings) std::cerr << "warning: " << w << "\n";
    if (!imported.error.empty()) {
        printError(imported.error);
        return std::nullopt;
    }
    Input in;
    in.doc.world.poses = quakePoses();
    in.doc.world.brushes = imported.brushes;
    return in;
}

bool writeMapOutput(const DocumentData& doc, const std::string& path) {
    const std::string text = writeMap(mapFromDocument(doc));
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size()) ||
        !file.commit()) {
        printError(path + ": cannot write: " + file.errorString().toStdString());
        return false;
    }
    return true;
}

} // namespace

int runConvert(const std::vector<std::string>& args) {
    std::vector<std::string> files;
    MeshImportOptions meshOptions;
    bool compile = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--parts") meshOptions.splitConnectedParts = true;
        else if (a == "--compile") compile = true;
        else if (a == "--y-up") meshOptions.yUp = true;
        else if (a == "--scale" && i + 1 < args.size()) {
            meshOptions.scale = std::atof(args[++i].c_str());
            if (!(meshOptions.scale > 0.0)) {
                printError("convert: --scale needs a positive number");
                return kExitUsage;
            }
        } else if (!a.empty() && a[0] != '-') files.push_back(a);
        else {
            printError("convert: unexpected argument '" + a + "'");
            return kExitUsage;
        }
    }
    if (files.size() != 2) {
        printError("convert: expected IN and OUT");
        return kExitUsage;
    }
    const std::string& input = files[0];
    const std::string& output = files[1];
    const bool toMap = hasExtension(output, ".map");
    if (!toMap && !hasExtension(output, ".shallot")) {
        printError("convert: OUT must be a .map or a .shallot file");
        return kExitUsage;
    }

    std::optional<Input> in = hasExtension(input, ".map")       ? readMapInput(input)
                              : hasExtension(input, ".shallot") ? readShallotInput(input)
                                                                : readMeshInput(input, meshOptions);
    if (!in) return kExitInputError;
    if (compile && !toMap) {
        CompileResult compiled = compileWorld(in->doc.world);
        if (!compiled.error.empty()) {
            printError(input + ": " + compiled.error);
            return kExitInputError;
        }
        for (const BrushProblem& p : compiled.problems) std::cerr << "warning: " << p.message << " (skipped)\n";
        in->tree = std::move(compiled.onion);
        in->extras.treeInputHash.clear(); // compiled from this very world
    }
    if (toMap) {
        if (!writeMapOutput(in->doc, output)) return kExitInputError;
    } else {
        in->extras.tree = in->tree ? &*in->tree : nullptr;
        const QString error = saveShallot(in->doc, QString::fromStdString(output), in->extras);
        if (!error.isEmpty()) {
            printError(error.toStdString());
            return kExitInputError;
        }
    }
    printJsonLine(QJsonObject{{"output", QString::fromStdString(output)},
                              {"brushes", qint64(in->doc.world.brushes.size())},
                              {"entities", qint64(in->doc.entities.size())},
                              {"poses", qint64(in->doc.world.poses.size())}});
    return kExitOk;
}

} // namespace shallot::cli
