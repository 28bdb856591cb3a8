#pragma once
// Reading and writing documents in every format the editor opens: .shallot, Quake .map,
// and meshes (imported as convex brushes).
#include "compile/bsp_tree.h"
#include "model/document_data.h"

#include <QImage>
#include <QString>
#include <QStringList>
#include <optional>

namespace shallot {

struct LoadedDocument {
    DocumentData data;
    QStringList warnings;          // import warnings, shown in the problems panel
    std::optional<BspTree> tree;   // a compiled tree stored in a .shallot
    std::string treeInputHash;     // the hash of the inputs that tree came from
};

// Files the mesh importer takes (by suffix).
bool isMeshFile(const QString& path);

// All or nothing: on failure `error` says what and where, and nothing is returned.
std::optional<LoadedDocument> loadDocumentFile(const QString& path, QString& error);

// Writes a .shallot (with `tree`, when given, tagged with the hash of the world it was
// compiled from) or a .map, atomically: the old file survives any failure. Returns an
// error or empty.
QString saveDocumentFile(const DocumentData& data, const QString& path, const BspTree* tree, const QImage& thumbnail);

} // namespace shallot
