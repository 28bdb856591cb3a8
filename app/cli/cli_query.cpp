#include "cli_common.h"
#include "level_objects_source.h"
#include "query_path.h"
#include "query_processor.h"
#include "tree_source.h"

#include <cstdio>
#include <cstring>

namespace shallot::cli {

namespace {

// Longer query lines are answered with an error and skipped without being stored.
constexpr size_t kMaxQueryLineBytes = size_t(1) << 20;

// Reads one line (without the newline) into `line`, at most kMaxQueryLineBytes of it;
// returns false at end of input. `tooLong` tells whether the rest was discarded. Bytes are
// taken as they are, NUL included (a NUL must not end or merge lines: every line gets its
// own answer), and the call returns as soon as the line is complete, so a caller waiting
// for an answer before writing the next query is served.
bool readBoundedLine(std::FILE* in, QByteArray& line, bool& tooLong) {
    line.clear();
    tooLong = false;
    char block[4096];
    size_t held = 0;
    const auto keep = [&] {
        if (!tooLong && size_t(line.size()) + held > kMaxQueryLineBytes) {
            tooLong = true;
            line.clear();
        }
        if (!tooLong) line.append(block, qsizetype(held));
        held = 0;
    };
    bool any = false;
    for (int c; (c = getc_unlocked(in)) != EOF;) {
        any = true;
        if (c == '\n') {
            keep();
            return true;
        }
        block[held++] = char(c);
        if (held == sizeof block) keep();
    }
    keep();
    return any;
}

} // namespace

int runQuery(const std::vector<std::string>& args) {
    // TREE and the walking rules of path queries (--step H, --drop H|any, --jump H,L,
    // --no-jump, --slope NZ).
    std::vector<std::string> positional;
    NavOverrides overrides;
    std::vector<Pose> poses; // --pose: replace the world's poses, as compile's do
    for (size_t i = 0; i < args.size(); ++i) {
        std::string error;
        if (args[i] == "--pose" && i + 1 < args.size()) {
            const std::optional<Pose> pose = parsePoseArgument(args[++i], error);
            if (!pose) {
                printError("query: " + error);
                return kExitUsage;
            }
            poses.push_back(*pose);
            continue;
        }
        const int flag = readNavFlag(args, i, overrides, error);
        if (flag < 0) {
            printError("query: " + error);
            return kExitUsage;
        }
        if (flag == 0) positional.push_back(args[i]);
    }
    if (positional.size() != 1 || positional[0].starts_with("-")) {
        printError("query: expected one TREE argument, a .obsp, .shallot or .map (queries come on stdin), and optionally "
                   "--step H, --drop H|any, --jump H,L, --no-jump, --slope NZ for path queries and --pose NAME=... "
                   "(as compile's, or NAME=ellipsoid:R,H, NAME=capsule:R,HEIGHT) to replace the poses");
        return kExitUsage;
    }
    // A .map or .shallot also gives the world, for traces of arbitrary boxes (a .obsp its
    // stored brushes).
    std::string loadError;
    const std::optional<TreeAndWorld> input =
        loadTreeAndWorldFrom(positional[0], loadError, poses.empty() ? nullptr : &poses);
    if (!input) {
        printError(loadError);
        return kExitInputError;
    }
    QueryProcessor processor(input->tree, input->world ? &*input->world : nullptr, input->pvs ? &*input->pvs : nullptr,
                             input->world ? &input->entities : nullptr, positional[0],
                             input->lighting ? &*input->lighting : nullptr);
    processor.setPathOverrides(overrides);
    if (input->storedBrushes) processor.setStoredBrushes(&*input->storedBrushes);
    // A .map's movers (doors, plats...) as objects, or those a .obsp stores: classify,
    // trace and move meet them.
    const std::shared_ptr<const LevelObjects> level = loadLevelObjects(positional[0], *input, 2);
    if (level) processor.setLevelObjects(level.get());
    // A .map's or .shallot's movers and triggers travel, and those a .obsp stores.
    if (std::shared_ptr<const TravelLevel> travel = loadTravelLevel(*input)) processor.setTravel(std::move(travel));
    bool anyFailed = false;
    QByteArray line;
    bool tooLong = false;
    while (readBoundedLine(stdin, line, tooLong)) {
        if (!tooLong && line.trimmed().isEmpty()) continue;
        bool ok = true;
        const QJsonObject answer =
            tooLong ? QJsonObject{{"error", QString("query line longer than %1 bytes").arg(kMaxQueryLineBytes)}}
                    : processor.answer(line, ok);
        anyFailed |= tooLong || !ok;
        printJsonLine(answer);
        // Stream: a caller waiting for this answer gets it before we block on more input.
        if (std::feof(stdin) || !std::ferror(stdin)) std::fflush(stdout);
    }
    return anyFailed ? kExitInputError : kExitOk;
}

} // namespace shallot::cli
