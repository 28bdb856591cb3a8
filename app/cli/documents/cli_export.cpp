// shallot-cli export TREE OUT.glb|OUT.obj: the compiled result as a mesh for other tools.
#include "cli_common.h"
#include "tree_source.h"

#include "io/mesh_export.h"

namespace shallot::cli {

int runExport(const std::vector<std::string>& args) {
    std::vector<std::string> files;
    MeshExportOptions options;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--pose" && i + 1 < args.size()) options.poses.push_back(args[++i]);
        else if (a == "--cells") options.cells = true;
        else if (a == "--portals") options.portals = true;
        else if (!a.empty() && a[0] != '-') files.push_back(a);
        else {
            printError("export: unexpected argument '" + a + "'");
            return kExitUsage;
        }
    }
    if (files.size() != 2) {
        printError("export: expected TREE and OUT");
        return kExitUsage;
    }
    std::string error;
    const std::optional<BspTree> tree = loadTreeFrom(files[0], error);
    if (!tree) {
        printError(error);
        return kExitInputError;
    }
    error = exportTreeMesh(*tree, files[1], options);
    if (!error.empty()) {
        printError(error);
        return kExitInputError;
    }
    return kExitOk;
}

} // namespace shallot::cli
