#pragma once
// Handing a command line over to shallot-cli-documents, the program that reads .shallot
// documents and meshes, so that shallot-cli itself loads only the core library.

namespace shallot::cli {

// Whether the command line needs shallot-cli-documents: convert and export, and any
// command that names a .shallot document.
bool needsDocumentsProgram(int argc, char** argv);

// Replaces this process by shallot-cli-documents with the same arguments (so stdin, stdout,
// stderr and the exit status are its own). Returns only when it cannot be run, with an
// error printed and the exit status to use.
int runDocumentsProgram(char** argv);

} // namespace shallot::cli
