#include "document/document_files.h"

#include "io/map_reader.h"
#include "io/map_writer.h"
#include "io/mesh_import.h"
#include "io/shallot_document.h"

#include <QFileInfo>
#include <QSaveFile>

namespace shallot {

namespace {

const QStringList kMeshSuffixes{"obj", "gltf", "glb", "fbx", "ply", "stl", "dae", "3ds", "blend", "off"};

std::optional<LoadedDocument> loadMap(const QString& path, QString& error) {
    const MapReadResult read = readMapFile(path.toStdString());
    if (!read.ok()) {
        error = QString::fromStdString(read.error.format());
        return std::nullopt;
    }
    LoadedDocument out;
    std::vector<std::string> warnings;
    out.data = documentFromMap(*read.map, &warnings);
    for (const MapWarning& w : read.map->warnings) out.warnings << QString::fromStdString(w.message);
    for (const std::string& w : warnings) out.warnings << QString::fromStdString(w);
    return out;
}

std::optional<LoadedDocument> loadMesh(const QString& path, QString& error) {
    const MeshImportResult mesh = importMeshBrushes(path.toStdString());
    if (!mesh.error.empty()) {
        error = QString::fromStdString(mesh.error);
        return std::nullopt;
    }
    LoadedDocument out;
    out.data.world.poses = quakePoses();
    out.data.world.brushes = mesh.brushes;
    for (const std::string& w : mesh.warnings) out.warnings << QString::fromStdString(w);
    return out;
}

} // namespace

bool isMeshFile(const QString& path) { return kMeshSuffixes.contains(QFileInfo(path).suffix().toLower()); }

std::optional<LoadedDocument> loadDocumentFile(const QString& path, QString& error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "map") return loadMap(path, error);
    if (isMeshFile(path)) return loadMesh(path, error);
    if (suffix == "shallot") {
        ShallotLoadResult r = loadShallot(path);
        if (!r.ok()) {
            error = r.error;
            return std::nullopt;
        }
        LoadedDocument out;
        const bool current = hasCurrentTree(*r.loaded);
        out.data = std::move(r.loaded->doc);
        if (current) {
            out.tree = std::move(r.loaded->tree);
            out.treeInputHash = r.loaded->treeHash;
        }
        return out;
    }
    error = QString("%1: unsupported file type '.%2' (open .shallot, .map or a mesh)").arg(path, suffix);
    return std::nullopt;
}

QString saveDocumentFile(const DocumentData& data, const QString& path, const BspTree* tree, const QImage& thumbnail) {
    if (QFileInfo(path).suffix().toLower() == "map") {
        const std::string text = writeMap(mapFromDocument(data));
        QSaveFile file(path); // written to a temporary, renamed over the old file on commit
        if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size()) ||
            !file.commit())
            return QString("%1: %2").arg(path, file.errorString());
        return QString();
    }
    SaveOptions options;
    options.tree = tree;
    if (tree) options.treeInputHash = compileInputHash(data.world);
    options.thumbnail = thumbnail;
    return saveShallot(data, path, options);
}

} // namespace shallot
