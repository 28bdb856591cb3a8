#pragma once
#include "compile/bsp_tree.h"
#include "io/map_file.h"
#include "light/level_light.h"
#include "world/world.h"

#include <QJsonObject>
#include <memory>
#include <mutex>
#include <string>

namespace shallot::cli {

// The query op {"op":"light","p":[x,y,z],"normal":[x,y,z]} (issue #41; the contract of
// /work/notes/light_shared.md, docs/lighting.md):
//   -> {"light":L,"color":[r,g,b]}
// L and r, g, b on Quake's 0-255 scale: the style-0 lightmap the engine reads at p,
// bilinear over the four luxels around p on its face's 16-unit luxel grid (light/
// light_lookup.h). The face: one whose plane holds p within 0.5 units, whose normal is
// within 1 degree of "normal" (any length but 0) and whose polygon holds p within 0.5
// units; else {"error":...}, also for a face with no lightmap (sky, liquids). A .map or
// .shallot is lit on the first light query (direct light, shadows through the tree's point
// pose) and kept for the rest of the stream; a .obsp has no lightmaps: every light query
// is an error.
class LightQueries {
public:
    // `world` and `entities` (either may be null) outlive this object; `file` names the
    // input in warnings.
    LightQueries(const BspTree& tree, const World* world, const std::vector<MapEntity>* entities, std::string file)
        : tree_(tree), world_(world), entities_(entities), file_(std::move(file)) {}
    QJsonObject answer(const QJsonObject& query, bool& ok) const;

private:
    const LevelLighting* lighting(QString& error) const; // lit once

    const BspTree& tree_;
    const World* world_;
    const std::vector<MapEntity>* entities_;
    std::string file_;
    mutable std::once_flag lightOnce_;
    mutable std::unique_ptr<LevelLighting> lit_;
    mutable QString error_;
};

} // namespace shallot::cli
