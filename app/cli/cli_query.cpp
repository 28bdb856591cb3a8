#include "cli_common.h"
#include "query_processor.h"
#include "tree_source.h"

#include <cstdio>
#include <cstring>

namespace shallot::cli {

namespace {

// Longer query lines are answered with an error and skipped without being stored.
constexpr size_t kMaxQueryLineBytes = size_t(1) << 20;

// Reads one line (without the newline) into `line`, at most kMaxQueryLineBytes of it;
// returns false at end of input. `tooLong` tells whether the rest was discarded.
bool readBoundedLine(std::FILE* in, QByteArray& line, bool& tooLong) {
    line.clear();
    tooLong = false;
    char chunk[65536];
    bool any = false;
    while (std::fgets(chunk, sizeof chunk, in)) {
        any = true;
        size_t n = std::strlen(chunk);
        const bool complete = n > 0 && chunk[n - 1] == '\n';
        if (complete) --n;
        if (!tooLong) {
            if (size_t(line.size()) + n > kMaxQueryLineBytes) {
                tooLong = true;
                line.clear();
            } else {
                line.append(chunk, qsizetype(n));
            }
        }
        if (complete) return true;
    }
    return any;
}

} // namespace

int runQuery(const std::vector<std::string>& args) {
    if (args.size() != 1) {
        printError("query: expected one TREE argument, a .obsp, .shallot or .map (queries come on stdin)");
        return kExitUsage;
    }
    // A .map or .shallot also gives the world, for traces of arbitrary boxes.
    std::string loadError;
    const std::optional<TreeAndWorld> input = loadTreeAndWorldFrom(args[0], loadError);
    if (!input) {
        printError(loadError);
        return kExitInputError;
    }
    const QueryProcessor processor(input->tree, input->world ? &*input->world : nullptr);
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
