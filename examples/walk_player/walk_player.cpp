// Walks a player box around a compiled level with collide-and-slide and prints where it
// goes: walk_player LEVEL.obsp X Y Z [TICKS]. The block between the [usage] marks is the
// usage example of docs/runtime.md (a test keeps the two the same).
#include <cstdlib>

// [usage]
#include <shallot/runtime.h>

#include <cmath>
#include <cstdio>

// Runs the "player" box from `start` for `ticks` ticks of 0.1 s: forward at 320 units/s,
// falling 16 units a tick, stepping up 18; turns left when a wall stops it.
int walk(const char* level, shallot::runtime::Vec3 start, int ticks) {
    using namespace shallot::runtime;
    const Result<Tree> loaded = Tree::loadFile(level); // memory-mapped, fully checked
    if (!loaded) return std::fprintf(stderr, "%s\n", loaded.error.c_str()), 1;
    const Tree& tree = loaded.value; // immutable: share it between threads freely
    const int player = tree.poseIndex("player");
    Vec3 pos = start, dir{1, 0, 0};
    for (int tick = 0; tick < ticks; ++tick) {
        const Result<Move> m = tree.move(player, pos, {32 * dir.x, 32 * dir.y, -16}, 18.0);
        if (!m || m.value.startSolid) return std::fprintf(stderr, "%s\n", m ? "start in solid" : m.error.c_str()), 1;
        if (std::abs(m.value.end.x - pos.x) + std::abs(m.value.end.y - pos.y) < 1) dir = {-dir.y, dir.x, 0};
        pos = m.value.end;
        std::printf("%d %.3f %.3f %.3f%s\n", tick, pos.x, pos.y, pos.z, m.value.stepped ? " stepped" : "");
    }
    return 0;
}
// [usage]

int main(int argc, char** argv) {
    if (argc != 5 && argc != 6) {
        std::fprintf(stderr, "usage: walk_player LEVEL.obsp X Y Z [TICKS]\n");
        return 2;
    }
    const shallot::runtime::Vec3 start{std::atof(argv[2]), std::atof(argv[3]), std::atof(argv[4])};
    return walk(argv[1], start, argc == 6 ? std::atoi(argv[5]) : 50);
}
