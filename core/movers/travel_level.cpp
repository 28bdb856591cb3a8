#include "movers/brush_bounds.h"
#include "movers/build_movers.h"
#include "movers/travel.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace shallot {

namespace {

bool isTriggerPush(const std::string& classname) {
    static const std::string kName = "trigger_push";
    return std::equal(classname.begin(), classname.end(), kName.begin(), kName.end(),
                      [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

} // namespace

TravelLevel travelLevelOf(const MapFile& map) {
    TravelLevel level{buildMovers(map), buildEntityGraph(map), {}, std::vector<char>(map.entities.size(), 0)};
    for (size_t i = 0; i < map.entities.size(); ++i) {
        const MapEntity& e = map.entities[i];
        if (const std::string* health = e.value("health")) {
            const double h = std::strtod(health->c_str(), nullptr);
            level.shootable[i] = std::isfinite(h) && h > 0.0;
        }
        if (!isTriggerPush(e.classname()) || e.brushes.empty()) continue;
        const Vec3 velocity = quakePushVelocity(e.value("angle"), e.value("angles"), e.value("speed"));
        const Aabb bounds = brushesBounds(e.brushes);
        if (!bounds.empty() && velocity.allFinite() && velocity != Vec3::Zero()) level.pushes.push_back({bounds, velocity});
    }
    return level;
}

} // namespace shallot
