#pragma once
// Shared pieces of the shallot-cli commands: loading worlds, pose arguments, JSON output.
#include "compile/compiler.h"
#include "io/game_profile.h"
#include "io/map_file.h"

#include <QJsonArray>
#include <QJsonObject>
#include <optional>
#include <string>
#include <vector>

namespace shallot::cli {

// Exit codes: 0 success, 1 the input was bad (or a query line failed), 2 usage error.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInputError = 1;
inline constexpr int kExitUsage = 2;

struct LoadedWorld {
    World world;
    double parseMs = 0.0;
    Game game = Game::Quake; // the .map's (--game or detected) or the document's
    // The .map's entities (worldspawn's, func_group's and func_detail's brushes are also in
    // `world`), or the document's (those keep no brushes): lights and brush entities.
    std::vector<MapEntity> entities = {};
};

// Reads a .map (as --game says, else as detected: its game's poses unless it names its
// own) or a .shallot into a World; prints file:line:column errors.
std::optional<LoadedWorld> loadWorld(const std::string& path);

// Parses "NAME=MINX,MINY,MINZ,MAXX,MAXY,MAXZ[:CONTENTS+CONTENTS...]"; the contents after
// ':' are the pose's blocking set (parseContents), else it has none. A round pose:
// "NAME=ellipsoid:R,H[:CONTENTS+...]" (radius across, radius up) or
// "NAME=capsule:R,HEIGHT[:CONTENTS+...]" (world/pose_shape.h; its errors as messages).
std::optional<Pose> parsePoseArgument(const std::string& text, std::string& error);

// `--lookahead-below N` or `--lookahead-candidates K` at args[i] (with its value, which it
// steps past) into `splitter`; false when args[i] is neither.
bool parseLookaheadOption(const std::vector<std::string>& args, size_t& i, SplitterParams& splitter);

// Parses "X,Y,Z" (finite numbers).
std::optional<Vec3> parsePoint(const std::string& text);

QJsonArray toJson(const Vec3& v);
// Prints a JSON object on one line to stdout.
void printJsonLine(const QJsonObject& object);
void printError(const std::string& message); // "shallot-cli: message" on stderr

QJsonObject statsJson(const CompileResult& result, double parseMs);

int runCompile(const std::vector<std::string>& args);
int runInfo(const std::vector<std::string>& args);
int runDump(const std::vector<std::string>& args);
int runQuery(const std::vector<std::string>& args);
int runBench(const std::vector<std::string>& args);
// bench --capsule-vs-planes (cli_capsule_vs_planes.cpp): runBench hands it its arguments.
int runCapsuleVsPlanes(const std::vector<std::string>& args);
int runPortals(const std::vector<std::string>& args);
int runReach(const std::vector<std::string>& args);
int runNav(const std::vector<std::string>& args);
int runCheck(const std::vector<std::string>& args);
int runPvs(const std::vector<std::string>& args);
int runVis(const std::vector<std::string>& args);
int runLight(const std::vector<std::string>& args);
int runSimulate(const std::vector<std::string>& args);
// Documents and meshes: in shallot-cli-documents only (documents/).
int runConvert(const std::vector<std::string>& args);
int runExport(const std::vector<std::string>& args);

} // namespace shallot::cli
