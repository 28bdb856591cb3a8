// shallot-cli reach: what an agent in one pose reaches from a point, and any leak.
#include "cli_common.h"
#include "tree_source.h"

#include "portal/reachability.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>

namespace shallot::cli {

namespace {

// Quake's point file: one "x y z" line per point of the leak path.
bool writePts(const std::vector<Vec3>& path, const std::string& file) {
    std::ofstream out(file, std::ios::trunc);
    char line[128];
    for (const Vec3& v : path) {
        std::snprintf(line, sizeof line, "%.17g %.17g %.17g\n", v.x(), v.y(), v.z());
        out << line;
    }
    out.close();
    return bool(out);
}

} // namespace

int runReach(const std::vector<std::string>& args) {
    std::string input, poseName, fromText, ptsFile;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool hasValue = i + 1 < args.size();
        if (a == "--pose" && hasValue) poseName = args[++i];
        else if (a == "--from" && hasValue) fromText = args[++i];
        else if (a == "--pts" && hasValue) ptsFile = args[++i];
        else if (!a.empty() && a[0] != '-' && input.empty()) input = a;
        else {
            printError("reach: unexpected argument '" + a + "'");
            return kExitUsage;
        }
    }
    if (input.empty() || poseName.empty() || fromText.empty()) {
        printError("reach: usage: reach TREE.obsp --pose NAME --from X,Y,Z [--pts FILE]");
        return kExitUsage;
    }
    const std::optional<Vec3> from = parsePoint(fromText);
    if (!from) {
        printError("reach: --from '" + fromText + "' must be three finite numbers X,Y,Z");
        return kExitUsage;
    }
    int exitCode = kExitOk;
    std::optional<TreeAndPose> loaded = loadTreeForPose(input, poseName, "reach", exitCode);
    if (!loaded) return exitCode;
    const BspTree& tree = loaded->tree;
    const int pose = loaded->pose;

    const Flood f = flood(tree, pose, {*from});
    if (f.starts[0].leaf < 0) std::cerr << "warning: the start is inside solid for pose '" << poseName << "'\n";
    QJsonArray path;
    for (const Vec3& v : f.leakPath) path.append(toJson(v));
    printJsonLine(QJsonObject{{"pose", QString::fromStdString(poseName)},
                              {"start_leaf", f.starts[0].leaf},
                              {"reachable_leaves", qint64(f.reachedLeaves)},
                              {"volume", f.volume},
                              {"leak", f.leak},
                              {"leak_path", path}});
    if (!ptsFile.empty() && !writePts(f.leakPath, ptsFile)) {
        printError("reach: failed writing '" + ptsFile + "'");
        return kExitInputError;
    }
    return kExitOk;
}

} // namespace shallot::cli
