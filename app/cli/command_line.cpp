#include "command_line.h"

#include "cli_common.h"
#include "game_option.h"

#include <iostream>

namespace shallot::cli {

namespace {

const char* kUsage = R"(usage: shallot-cli COMMAND ...
  compile IN.map|IN.shallot [-o OUT.obsp] [--pose NAME=MINX,MINY,MINZ,MAXX,MAXY,MAXZ[:CONTENTS+...]]... [--stats] [--threads N]
                  [--lookahead-below N] [--lookahead-candidates K]
                  (round poses: --pose NAME=ellipsoid:R,H[:CONTENTS+...] or NAME=capsule:R,HEIGHT[:CONTENTS+...];
                   not in a .obsp: query the .map)
  (every command reading a .map takes --game quake|quake2|halflife|quake3; default: detected from the file)
  info TREE.obsp
  query TREE.obsp|IN.shallot|IN.map [--step H] [--drop H|any] [--jump H,L|--no-jump] [--slope NZ] [--pose NAME=...]...
                             (JSON lines on stdin: classify, trace, move, reach, path, visible, light; one line out per query;
                              on a .map, classify, trace and move meet the movers: "movers":{"ENTITY":"open"|...})
  bench [MAP...] [--runs N] [--threads N] [--json] [--edits N] [--poses N] [--copies K] [--scaling]
  bench --capsule-vs-planes MAP... [--pose NAME=capsule:R,HEIGHT]... [--samples N] [--seed K] [--json]
                             (where Quake 3's moved planes refuse places the exact capsule fits)
  dump TREE.obsp             (the tree as readable text)
  convert IN OUT             (IN: .map, .shallot or a mesh; OUT: .map or .shallot) [--compile] [--parts] [--scale S] [--y-up]
  export TREE OUT.glb|OUT.obj [--pose NAME]... [--cells] [--portals]   (TREE: .obsp, .shallot or .map)
  portals TREE --pose NAME [-o FILE] [--format prt|json]         (TREE: .obsp, .shallot or .map)
  reach TREE --pose NAME --from X,Y,Z [--pts FILE]                 (TREE: .obsp, .shallot or .map)
  check IN.map|IN.shallot [--fgd FILE] [--stats] [--no-walking] [--no-travel] [--travel-in-order] [--walk POSE:FIELD]...
                             (spawn problems as JSON lines; exit 0 none, 1 some, 2 unreadable;
                              --walk: a walking rule of a pose for this run, step=H, drop=H|any, jump=H,L|off, slope=NZ)
  nav TREE --pose NAME [--step H] [--drop H|any] [--jump H,L|--no-jump] [--slope NZ] [--json] [--paths N]
                             (walkable surfaces, links and components of a pose; TREE: .obsp, .shallot or .map)
  pvs IN.map|IN.shallot [--fast] [--from X,Y,Z [--list]] [--threads N]
                             (the potentially visible set of the sight pose: one JSON line of figures)
  vis TREE.obsp [-o OUT.obsp] [--stats] [--fast] [--threads N]
                             (computes the sight pose's PVS and stores it in the .obsp: in place without -o)
  light IN.map|IN.shallot [-o OUT.obsp] [--bounce N] [--bounce-pvs none|base|full] [--relight K] [--relight-brush K] [--stats] [--threads N]
                             (Quake's direct light of the level, shadows through the point pose's tree: one JSON line of figures;
                              -o: the compiled level with its lightmaps, for the query op light; --bounce: N bounces of
                              diffuse light between faces, 0-8, default 0, receivers chosen through the level's PVS
                              (--bounce-pvs: its base flow by default, the full flow, or none: the same light);
                              --relight, --relight-brush: time relighting after
                              moving K lights, K brushes)
  simulate TREE --agents N --seconds S [--seed K] [--threads T] [--pose NAME]... [--fired] [--seek SHARE] [--json]
                             (N agents walk paths between random floors, colliding with the world and each other;
                              prints what each broad-phase stage settled and steps per second; the movers cycle,
                              or with --fired rest until the agents touch them or a trigger fires them; --seek:
                              that share of the goals, 0-1, are buttons, triggers and teleporters; teleporters run)
)";

constexpr Command kCoreCommands[] = {
    {"compile", runCompile}, {"info", runInfo},       {"query", runQuery}, {"bench", runBench},
    {"dump", runDump},       {"portals", runPortals}, {"reach", runReach}, {"check", runCheck},
    {"nav", runNav},         {"pvs", runPvs},         {"vis", runVis},     {"light", runLight},
    {"simulate", runSimulate},
};

} // namespace

std::span<const Command> coreCommands() { return kCoreCommands; }

int runCommandLine(int argc, char** argv, std::span<const Command> more) {
    if (argc < 2) {
        std::cerr << kUsage;
        return kExitUsage;
    }
    const std::string name = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    if (std::string error; !takeGameOption(args, error)) {
        printError(error);
        return kExitUsage;
    }
    try {
        for (std::span<const Command> commands : {coreCommands(), more})
            for (const Command& command : commands)
                if (command.name == name) return command.run(args);
    } catch (const std::exception& e) {
        printError(e.what());
        return kExitInputError;
    }
    if (name == "--help" || name == "-h" || name == "help") {
        std::cout << kUsage;
        return kExitOk;
    }
    std::cerr << "shallot-cli: unknown command '" << name << "'\n" << kUsage;
    return kExitUsage;
}

} // namespace shallot::cli
