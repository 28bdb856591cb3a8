#pragma once
// Where Save As and Export propose to write. A level opened from where the user may not
// or should not write (the installed sample maps, a read-only file or folder) is saved by
// default into the user's documents folder, never over a file of the installation.
#include <QString>
#include <QStringList>

namespace shallot {

// The installed sample maps (<prefix>/share/shallot/maps, found from the program's own
// folder; in the build tree a link to the sources' maps/), or empty when there are none.
QString installedMapsDir();

// The folders the editor never proposes to write into: the installed maps folder and its
// parent (<prefix>/share/shallot), each as given and with links resolved.
QStringList protectedDirs();

// Whether `file` (existing or not) lies in one of `dirs` or below, links resolved.
bool isUnder(const QString& file, const QStringList& dirs);

// Whether a new file beside `file`, or `file` itself, cannot or must not be written: it is
// under `protectedDirs`, it exists and is read-only, or its folder is read-only.
bool isReadOnlyLocation(const QString& file, const QStringList& protectedDirs);

// The path the Save As / Export dialog opens at for a document opened from `from` (empty:
// a new level): its folder and name with `extension` (".shallot", ".map"), or, when `from`
// or that file is in a read-only location, `documentsDir` with the same name; "untitled" +
// extension in `documentsDir` for a new level.
QString proposedSavePath(const QString& from, const QString& extension, const QStringList& protectedDirs,
                         const QString& documentsDir);

// The same with the installation's protected folders and the user's documents folder
// (QStandardPaths::DocumentsLocation).
QString proposedSavePath(const QString& from, const QString& extension);

} // namespace shallot
