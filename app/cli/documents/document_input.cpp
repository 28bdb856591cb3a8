#include "document_input.h"

#include "io/shallot_document.h"

namespace shallot::cli {

std::optional<DocumentInput> readDocumentInput(const std::string& path, std::string& error) {
    ShallotLoadResult read = loadShallot(QString::fromStdString(path));
    if (!read.ok()) {
        error = read.error.toStdString();
        return std::nullopt;
    }
    LoadedShallot& loaded = *read.loaded;
    DocumentInput in;
    if (hasCurrentTree(loaded)) in.tree = std::move(loaded.tree);
    in.world = std::move(loaded.doc.world);
    in.entities = std::move(loaded.doc.entities);
    in.entityDefinitions = std::move(loaded.doc.entityDefinitions);
    in.entityDefinitionsPath = std::move(loaded.doc.entityDefinitionsPath);
    in.game = loaded.doc.game;
    return in;
}

} // namespace shallot::cli
