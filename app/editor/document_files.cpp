#include "document_files.h"

#include "io/map_reader.h"

#include <QFileInfo>

namespace shallot {

std::optional<LoadedDocument> loadDocumentFile(const QString& path, QString& error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "map") {
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
    error = QString("%1: unsupported file type '.%2'").arg(path, suffix);
    return std::nullopt;
}

QString saveDocumentFile(const DocumentData&, const QString& path, const BspTree*, const QImage&) {
    return QString("%1: saving is not available yet").arg(path);
}

} // namespace shallot
