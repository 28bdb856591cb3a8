#include "movers/placed_movers.h"

#include "edit/brush_operations.h"

#include <iterator>

namespace shallot {

std::vector<Brush> placedMoverBrushes(const std::vector<Mover>& movers, const std::vector<Vec3>& offsets) {
    std::vector<Brush> out;
    for (size_t i = 0; i < movers.size() && i < offsets.size(); ++i)
        for (const Brush& b : movers[i].brushes) {
            out.push_back(translated(b, offsets[i]));
            out.back().source.entity = movers[i].entity;
        }
    return out;
}

World worldWithMovers(World world, const std::vector<Mover>& movers, const std::vector<Vec3>& offsets) {
    std::vector<Brush> placed = placedMoverBrushes(movers, offsets);
    world.brushes.insert(world.brushes.end(), std::make_move_iterator(placed.begin()), std::make_move_iterator(placed.end()));
    return world;
}

} // namespace shallot
