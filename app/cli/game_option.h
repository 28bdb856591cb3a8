#pragma once
// `--game quake|quake2|halflife|quake3`: the game every .map a command reads is taken as
// (its contents rules and default poses), instead of the one detectGame finds. It applies
// to the whole command line, so runCommandLine takes it out before the command parses
// the rest.
#include "io/game_profile.h"

#include <optional>
#include <string>
#include <vector>

namespace shallot::cli {

// Removes every "--game G" from `args` and remembers the last G for mapGameOption. False
// with `error` set when G is missing or not a game.
bool takeGameOption(std::vector<std::string>& args, std::string& error);

// The game given with --game, or nothing (detect it).
std::optional<Game> mapGameOption();

} // namespace shallot::cli
