#pragma once
// Small .map texts with brush entities for the mover tests (mover_model_test,
// mover_checks_test): box brushes and entities from key lists.
#include <string>
#include <utility>
#include <vector>

namespace shallot::test {

// The brush of the box [x0, x1] x [y0, y1] x [z0, z1], faces in Quake's point order.
inline std::string boxBrush(int x0, int y0, int z0, int x1, int y1, int z1, const std::string& texture = "WALL") {
    const auto pt = [](int x, int y, int z) {
        return "( " + std::to_string(x) + " " + std::to_string(y) + " " + std::to_string(z) + " ) ";
    };
    const std::string tail = texture + " 0 0 0 1 1\n";
    return "{\n" + pt(x0, y0, z1) + pt(x0, y1, z1) + pt(x1, y0, z1) + tail + // +z
           pt(x0, y0, z0) + pt(x1, y0, z0) + pt(x0, y1, z0) + tail +         // -z
           pt(x1, y0, z0) + pt(x1, y0, z1) + pt(x1, y1, z0) + tail +         // +x
           pt(x0, y0, z0) + pt(x0, y1, z0) + pt(x0, y0, z1) + tail +         // -x
           pt(x0, y1, z0) + pt(x1, y1, z0) + pt(x0, y1, z1) + tail +         // +y
           pt(x0, y0, z0) + pt(x0, y0, z1) + pt(x1, y0, z0) + tail + "}\n";  // -y
}

using Keys = std::vector<std::pair<std::string, std::string>>;

// An entity with `keys` (in order) and `brushes` (boxBrush texts).
inline std::string entityText(const Keys& keys, const std::vector<std::string>& brushes = {}) {
    std::string text = "{\n";
    for (const auto& [k, v] : keys) text += "\"" + k + "\" \"" + v + "\"\n";
    for (const std::string& b : brushes) text += b;
    return text + "}\n";
}

// A worldspawn with a floor slab under the origin, the usual first entity.
inline std::string worldText() {
    return entityText({{"classname", "worldspawn"}}, {boxBrush(-1024, -1024, -64, 1024, 1024, 0)});
}

} // namespace shallot::test
