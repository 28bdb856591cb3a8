#include "game_option.h"

namespace shallot::cli {
namespace {

std::optional<Game> givenGame; // one command line per process

} // namespace

bool takeGameOption(std::vector<std::string>& args, std::string& error) {
    for (size_t i = 0; i < args.size();) {
        if (args[i] != "--game") {
            ++i;
            continue;
        }
        const std::optional<Game> game = i + 1 < args.size() ? parseGame(args[i + 1]) : std::nullopt;
        if (!game) {
            error = "--game must be followed by quake, quake2, halflife or quake3";
            return false;
        }
        givenGame = game;
        args.erase(args.begin() + std::ptrdiff_t(i), args.begin() + std::ptrdiff_t(i) + 2);
    }
    return true;
}

std::optional<Game> mapGameOption() { return givenGame; }

} // namespace shallot::cli
