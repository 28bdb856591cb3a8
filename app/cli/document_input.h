#pragma once
// A .shallot document as the commands read it. Reading one needs Qt Gui, QuaZip and more,
// so only shallot-cli-documents links the reader (documents/document_input.cpp); the lean
// shallot-cli hands every command line that names a .shallot over to it (lean/main.cpp).
#include "compile/bsp_tree.h"
#include "io/map_file.h"
#include "world/world.h"

#include <optional>
#include <string>
#include <vector>

namespace shallot::cli {

struct DocumentInput {
    World world;
    std::optional<BspTree> tree; // the stored tree, only when it was compiled from `world`
    std::vector<MapEntity> entities;
    std::string entityDefinitions;     // the document's own .fgd text (may be empty)
    std::string entityDefinitionsPath; // where that .fgd came from (may be empty)
    Game game = Game::Quake;           // the document's game
};

// Reads the document at `path`; on failure returns nothing and sets `error` ("path: ...").
std::optional<DocumentInput> readDocumentInput(const std::string& path, std::string& error);

} // namespace shallot::cli
