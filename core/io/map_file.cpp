#include "io/map_file.h"

#include "world/entity_class.h"

namespace shallot {

std::string MapEntity::classname() const {
    const std::string* v = value("classname");
    return v ? *v : std::string();
}

const std::string* MapEntity::value(std::string_view key) const {
    for (auto it = keys.rbegin(); it != keys.rend(); ++it)
        if (it->first == key) return &it->second;
    return nullptr;
}

std::optional<Vec3> MapEntity::origin() const {
    const std::string* text = value("origin");
    return text ? parseEntityVector(*text) : std::nullopt;
}

} // namespace shallot
