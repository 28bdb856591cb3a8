#include "model/document_data.h"

#include "io/map_to_world.h"

#include <algorithm>

namespace shallot {

namespace {

bool isWorldspawn(const MapEntity& e) {
    std::string c = e.classname();
    std::transform(c.begin(), c.end(), c.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    return c == "worldspawn";
}

} // namespace

DocumentData documentFromMap(const MapFile& map, std::vector<std::string>* warnings) {
    DocumentData doc;
    doc.world = worldFromMap(map, {}, warnings);
    for (const MapEntity& e : map.entities) {
        if (isWorldspawn(e) && doc.worldKeys.empty()) {
            doc.worldKeys = e.keys;
            continue;
        }
        // worldFromMap took func_group / func_detail brushes into the world; the entity is
        // kept with its keys (and its brushes, for a faithful export) all the same.
        doc.entities.push_back(e);
    }
    return doc;
}

} // namespace shallot
