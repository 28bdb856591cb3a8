#pragma once
// Small .map texts with brush entities for the mover tests (mover_model_test,
// mover_checks_test, obsp_movers_test, runtime_movers_test): box brushes and entities from
// key lists.
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

// A closed room (floor, walls, ceiling) crossed by a door at x = 0, a plat, a train on a
// two-corner loop, a button that opens a second, named door, and a teleporter.
inline std::string moversLevelText() {
    std::string text = entityText({{"classname", "worldspawn"}},
                                  {boxBrush(-1024, -512, -256, 1024, 512, -240), boxBrush(-1040, -512, -256, -1024, 512, 256),
                                   boxBrush(1024, -512, -256, 1040, 512, 256), boxBrush(-1040, -528, -256, 1040, -512, 256),
                                   boxBrush(-1040, 512, -256, 1040, 528, 256), boxBrush(-1024, -512, -240, -8, 512, 0),
                                   boxBrush(8, -512, -240, 1024, 512, 0), boxBrush(-1040, -528, 256, 1040, 528, 272)});
    text += entityText({{"classname", "func_door"}, {"angle", "-1"}}, {boxBrush(-8, -128, 0, 8, 128, 128)});      // 1
    text += entityText({{"classname", "func_plat"}}, {boxBrush(200, 200, -120, 328, 328, 0)});                     // 2
    text += entityText({{"classname", "func_train"}, {"target", "c1"}, {"speed", "50"}},
                       {boxBrush(-400, -300, 0, -336, -236, 16)});                                                   // 3
    text += entityText({{"classname", "path_corner"}, {"targetname", "c1"}, {"target", "c2"}, {"origin", "-400 -300 0"}});
    text += entityText({{"classname", "path_corner"}, {"targetname", "c2"}, {"target", "c1"}, {"origin", "-400 100 64"}});
    text += entityText({{"classname", "func_door"}, {"targetname", "gate"}, {"angle", "90"}},
                       {boxBrush(500, -512, 0, 516, -256, 128)});                                                    // 6
    text += entityText({{"classname", "func_button"}, {"target", "gate"}, {"angle", "0"}},
                       {boxBrush(700, 400, 32, 716, 432, 64)});                                                      // 7
    text += entityText({{"classname", "trigger_teleport"}, {"target", "there"}}, {boxBrush(-900, 300, 0, -836, 364, 64)});
    text += entityText({{"classname", "info_teleport_destination"}, {"targetname", "there"}, {"origin", "900 0 24"}});
    text += entityText({{"classname", "func_wall"}}, {boxBrush(600, 0, 0, 632, 32, 200)});                       // 10
    text += entityText({{"classname", "info_player_start"}, {"origin", "-600 0 24"}});
    return text;
}

} // namespace shallot::test
