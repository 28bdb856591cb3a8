// Which brush entities are movers in each game (moverKindOf in movers/build_movers.h).
#include "movers/build_movers.h"

#include <array>
#include <string>

namespace shallot {
namespace {

struct ClassKind {
    const char* classname;
    MoverKind kind;
};

// Quake (progs.dat): doors.qc, plats.qc, buttons.qc, misc.qc.
constexpr std::array kQuake{
    ClassKind{"func_door", MoverKind::Door},          ClassKind{"func_door_secret", MoverKind::SecretDoor},
    ClassKind{"func_plat", MoverKind::Plat},          ClassKind{"func_train", MoverKind::Train},
    ClassKind{"func_button", MoverKind::Button},      ClassKind{"func_wall", MoverKind::Static},
    ClassKind{"func_illusionary", MoverKind::Static}, ClassKind{"func_episodegate", MoverKind::Static},
    ClassKind{"func_bossgate", MoverKind::Static},
};

// Quake 2 (g_func.c, g_misc.c); rotating things are static here: their turning is not
// modelled. Quake 3 shares these names and rules.
constexpr std::array kQuake2{
    ClassKind{"func_door", MoverKind::Door},           ClassKind{"func_door_secret", MoverKind::SecretDoor},
    ClassKind{"func_plat", MoverKind::Plat},           ClassKind{"func_train", MoverKind::Train},
    ClassKind{"func_button", MoverKind::Button},       ClassKind{"func_wall", MoverKind::Static},
    ClassKind{"func_object", MoverKind::Static},       ClassKind{"func_explosive", MoverKind::Static},
    ClassKind{"func_door_rotating", MoverKind::Static}, ClassKind{"func_rotating", MoverKind::Static},
    ClassKind{"func_conveyor", MoverKind::Static},     ClassKind{"func_water", MoverKind::Static},
    ClassKind{"func_killbox", MoverKind::Static},      ClassKind{"func_bobbing", MoverKind::Static},
    ClassKind{"func_pendulum", MoverKind::Static},     ClassKind{"func_static", MoverKind::Static},
};

// Half-Life (dlls/doors.cpp, plats.cpp, buttons.cpp, bmodels.cpp, func_break.cpp).
constexpr std::array kHalfLife{
    ClassKind{"func_door", MoverKind::Door},            ClassKind{"func_plat", MoverKind::Plat},
    ClassKind{"func_platrot", MoverKind::Plat},         ClassKind{"func_train", MoverKind::Train},
    ClassKind{"func_button", MoverKind::Button},        ClassKind{"func_wall", MoverKind::Static},
    ClassKind{"func_wall_toggle", MoverKind::Static},   ClassKind{"func_breakable", MoverKind::Static},
    ClassKind{"func_pushable", MoverKind::Static},      ClassKind{"func_illusionary", MoverKind::Static},
    ClassKind{"func_door_rotating", MoverKind::Static}, ClassKind{"func_rotating", MoverKind::Static},
    ClassKind{"func_rot_button", MoverKind::Static},    ClassKind{"func_pendulum", MoverKind::Static},
    ClassKind{"func_conveyor", MoverKind::Static},      ClassKind{"func_water", MoverKind::Static},
    ClassKind{"func_tracktrain", MoverKind::Static},    ClassKind{"func_guntarget", MoverKind::Static},
    ClassKind{"momentary_door", MoverKind::Static},     ClassKind{"momentary_rot_button", MoverKind::Static},
};

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
}

template <size_t N>
std::optional<MoverKind> find(const std::array<ClassKind, N>& table, const std::string& classname) {
    for (const ClassKind& entry : table)
        if (classname == entry.classname) return entry.kind;
    return std::nullopt;
}

} // namespace

std::optional<MoverKind> moverKindOf(Game game, std::string_view classname) {
    const std::string cls = lower(classname);
    switch (game) {
    case Game::Quake: return find(kQuake, cls);
    case Game::Quake2:
    case Game::Quake3: return find(kQuake2, cls);
    case Game::HalfLife: return find(kHalfLife, cls);
    }
    return std::nullopt;
}

} // namespace shallot
