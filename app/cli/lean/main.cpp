// shallot-cli: compile worlds into onion BSP trees (.obsp), query, convert and export them.
// This program links the core library and Qt Core only, so that compiling and querying a
// level load nothing else (docs/performance.md, "Peak memory"); command lines that convert
// or export, or name a .shallot document, are run by shallot-cli-documents instead.
#include "allocator.h"
#include "command_line.h"
#include "documents_program.h"

#include <string_view>

int main(int argc, char** argv) {
    using namespace shallot::cli;
    if (needsDocumentsProgram(argc, argv)) return runDocumentsProgram(argv);
    // Not for bench, which measures the allocator as the editor uses it.
    if (argc < 2 || std::string_view(argv[1]) != "bench") returnFreedMemoryAtOnce();
    return runCommandLine(argc, argv, {});
}
