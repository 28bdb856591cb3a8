// shallot-cli-documents: shallot-cli with the commands and inputs that need Qt Gui,
// QuaZip, Assimp and Qhull (.shallot documents, meshes). shallot-cli runs it, with the
// same arguments, for those; it is not meant to be run by hand, though it can be.
#include "cli_common.h"
#include "command_line.h"

int main(int argc, char** argv) {
    using namespace shallot::cli;
    static constexpr Command kDocumentCommands[] = {{"convert", runConvert}, {"export", runExport}};
    return runCommandLine(argc, argv, kDocumentCommands);
}
