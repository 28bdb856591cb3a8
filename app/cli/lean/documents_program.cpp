#include "documents_program.h"

#include "cli_common.h"
#include "document_input.h"
#include "tree_source.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <unistd.h>

namespace shallot::cli {

bool needsDocumentsProgram(int argc, char** argv) {
    if (argc < 2) return false;
    const std::string_view command = argv[1];
    if (command == "convert" || command == "export") return true;
    for (int i = 2; i < argc; ++i)
        if (hasExtension(argv[i], ".shallot")) return true;
    return false;
}

int runDocumentsProgram(char** argv) {
    // Next to this program in the build tree; in libexec once installed.
    std::error_code ignored;
    const std::filesystem::path dir = std::filesystem::read_symlink("/proc/self/exe", ignored).parent_path();
    const std::filesystem::path candidates[] = {dir / "shallot-cli-documents",
                                                dir / SHALLOT_LIBEXEC_FROM_BINDIR / "shallot-cli-documents"};
    int error = 0;
    for (const std::filesystem::path& program : candidates) {
        execv(program.c_str(), argv); // returns only on failure
        if (error == 0 || errno != ENOENT) error = errno;
    }
    printError("cannot run " + candidates[1].lexically_normal().string() + ": " + std::strerror(error));
    return kExitInputError;
}

// main() hands every command line that names a .shallot over before a command runs, so no
// command of this program reads one; should a new way in miss that, it fails cleanly.
std::optional<DocumentInput> readDocumentInput(const std::string& path, std::string& error) {
    error = path + ": .shallot documents are read by shallot-cli-documents";
    return std::nullopt;
}

} // namespace shallot::cli
