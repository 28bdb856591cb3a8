// shallot-cli: compile worlds into onion BSP trees (.obsp), query, convert and export them.
#include "cli_common.h"

#include <iostream>

namespace {

const char* kUsage = R"(usage: shallot-cli COMMAND ...
  compile IN.map|IN.shallot [-o OUT.obsp] [--pose NAME=MINX,MINY,MINZ,MAXX,MAXY,MAXZ]... [--stats] [--threads N]
                  [--lookahead-below N] [--lookahead-candidates K]
  info TREE.obsp
  query TREE.obsp|IN.shallot|IN.map   (JSON lines on stdin: classify, trace, move, reach; one line out per query)
  bench [MAP...] [--runs N] [--threads N] [--json] [--edits N] [--poses N] [--copies K] [--scaling]
  dump TREE.obsp             (the tree as readable text)
  convert IN OUT             (IN: .map, .shallot or a mesh; OUT: .map or .shallot) [--compile] [--parts] [--scale S] [--y-up]
  export TREE OUT.glb|OUT.obj [--pose NAME]... [--cells] [--portals]   (TREE: .obsp, .shallot or .map)
  portals TREE --pose NAME [-o FILE] [--format prt|json]         (TREE: .obsp, .shallot or .map)
  reach TREE --pose NAME --from X,Y,Z [--pts FILE]                 (TREE: .obsp, .shallot or .map)
  check IN.map|IN.shallot [--fgd FILE] [--stats]   (spawn problems as JSON lines; exit 0 none, 1 some, 2 unreadable)
)";

} // namespace

namespace shallot::cli {
int runCheck(const std::vector<std::string>& args); // cli_check.cpp
}

int main(int argc, char** argv) {
    using namespace shallot::cli;
    if (argc < 2) {
        std::cerr << kUsage;
        return kExitUsage;
    }
    const std::string command = argv[1];
    const std::vector<std::string> args(argv + 2, argv + argc);
    try {
        if (command == "compile") return runCompile(args);
        if (command == "info") return runInfo(args);
        if (command == "query") return runQuery(args);
        if (command == "bench") return runBench(args);
        if (command == "dump") return runDump(args);
        if (command == "convert") return runConvert(args);
        if (command == "export") return runExport(args);
        if (command == "portals") return runPortals(args);
        if (command == "reach") return runReach(args);
        if (command == "check") return runCheck(args);
        if (command == "--help" || command == "-h" || command == "help") {
            std::cout << kUsage;
            return kExitOk;
        }
    } catch (const std::exception& e) {
        printError(e.what());
        return kExitInputError;
    }
    std::cerr << "shallot-cli: unknown command '" << command << "'\n" << kUsage;
    return kExitUsage;
}
