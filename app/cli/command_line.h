#pragma once
// The command line both shallot-cli programs share: usage, help, dispatch, exit codes.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shallot::cli {

struct Command {
    std::string_view name;
    int (*run)(const std::vector<std::string>& args);
};

// The commands that need only the core library (and Qt Core for JSON).
std::span<const Command> coreCommands();

// Runs argv[1] with argv[2...] from `coreCommands()` and `more`; prints the usage for no
// command, --help or an unknown one, and an uncaught exception as an input error.
int runCommandLine(int argc, char** argv, std::span<const Command> more);

} // namespace shallot::cli
