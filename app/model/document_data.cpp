#include "model/document_data.h"

#include "io/map_to_world.h"
#include "io/map_writer.h"

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
    doc.game = map.game;
    doc.quake3Brushes = map.quake3Brushes;
    // The map entity a brush came from (brushes built by hand may name none).
    const auto entityOf = [&](const Brush& b) {
        return b.source.entity >= 0 && size_t(b.source.entity) < map.entities.size() ? size_t(b.source.entity)
                                                                                        : map.entities.size();
    };
    std::vector<bool> inWorld(map.entities.size() + 1, false);
    for (const Brush& b : doc.world.brushes) inWorld[entityOf(b)] = true;

    // The document's entity number of each map entity: worldspawn 0, entities[i] i + 1.
    std::vector<int> number(map.entities.size() + 1, 0);
    bool haveWorldspawn = false;
    for (size_t i = 0; i < map.entities.size(); ++i) {
        const MapEntity& e = map.entities[i];
        if (isWorldspawn(e) && !haveWorldspawn) {
            doc.worldKeys = e.keys;
            doc.worldPatches = e.patches;
            haveWorldspawn = true;
            continue;
        }
        doc.entities.push_back(e);
        number[i] = int(doc.entities.size());
        // worldFromMap took func_group / func_detail brushes into the world: keep one copy.
        if (inWorld[i]) doc.entities.back().brushes.clear();
    }
    for (Brush& b : doc.world.brushes) b.source.entity = number[entityOf(b)];
    for (MapEntity& e : doc.entities)
        for (Brush& b : e.brushes) b.source.entity = number[entityOf(b)];
    return doc;
}

MapFile mapFromDocument(const DocumentData& doc) {
    MapFile map = mapFromWorld(doc.world, doc.worldKeys, doc.entities, doc.game, doc.quake3Brushes);
    map.entities[0].patches = doc.worldPatches;
    return map;
}

std::vector<bool> detailBrushes(const World& world, const std::vector<MapEntity>& entities) {
    return detailBrushes(world, entities, 1); // the document's entities follow worldspawn
}

std::optional<Vec3> playerStart(const DocumentData& data) {
    for (const MapEntity& e : data.entities) {
        if (e.classname() != "info_player_start") continue;
        if (const std::optional<Vec3> v = e.origin()) return v;
    }
    return std::nullopt;
}

} // namespace shallot
