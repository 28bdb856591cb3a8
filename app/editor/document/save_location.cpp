#include "document/save_location.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <unistd.h>

namespace shallot {

namespace {

// The folder `path` names with links resolved, or its clean absolute path when it does not
// exist.
QString resolvedDir(const QString& path) {
    const QString canonical = QFileInfo(path).canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(QFileInfo(path).absoluteFilePath()) : canonical;
}

// A file's path with links resolved as far as they exist: its folder's, and its name.
QString resolvedFile(const QString& file) {
    const QFileInfo info(file);
    if (info.exists()) return info.canonicalFilePath();
    return resolvedDir(info.absolutePath()) + '/' + info.fileName();
}

// No write bit at all is read-only whoever asks (root writes such a file, but it says
// "leave me"); else access(2) answers for this user (a folder owned by another, a
// read-only mount). QFileInfo's *User bits are not used: for root they are always set.
bool writable(const QString& path) {
    const QFileInfo info(path);
    if (!(info.permissions() & (QFile::WriteOwner | QFile::WriteGroup | QFile::WriteOther))) return false;
    return ::access(QFile::encodeName(info.absoluteFilePath()).constData(), W_OK) == 0;
}

} // namespace

QString installedMapsDir() {
    const QString dir = QCoreApplication::applicationDirPath() + "/" SHALLOT_MAPS_FROM_BINDIR;
    return QFileInfo(dir).isDir() ? QDir::cleanPath(dir) : QString();
}

QStringList protectedDirs() {
    const QString maps = installedMapsDir();
    if (maps.isEmpty()) return {};
    const QString data = QFileInfo(maps).absolutePath(); // <prefix>/share/shallot
    QStringList dirs{maps, data, resolvedDir(maps), resolvedDir(data)};
    dirs.removeDuplicates();
    return dirs;
}

bool isUnder(const QString& file, const QStringList& dirs) {
    const QString plain = QDir::cleanPath(QFileInfo(file).absoluteFilePath());
    const QString resolved = resolvedFile(file);
    for (const QString& dir : dirs) {
        const QString prefix = QDir::cleanPath(dir) + '/';
        if (plain.startsWith(prefix) || resolved.startsWith(resolvedDir(dir) + '/')) return true;
    }
    return false;
}

bool isReadOnlyLocation(const QString& file, const QStringList& protectedDirs) {
    if (isUnder(file, protectedDirs)) return true;
    const QFileInfo info(file);
    if (info.exists() && !writable(file)) return true;
    return !writable(info.absolutePath());
}

QString proposedSavePath(const QString& from, const QString& extension, const QStringList& protectedDirs,
                         const QString& documentsDir) {
    if (from.isEmpty()) return QDir(documentsDir).filePath("untitled" + extension);
    const QFileInfo info(from);
    const QString name = info.completeBaseName() + extension;
    const QString beside = info.absoluteDir().filePath(name);
    if (isReadOnlyLocation(from, protectedDirs) || isReadOnlyLocation(beside, protectedDirs))
        return QDir(documentsDir).filePath(name);
    return beside;
}

QString proposedSavePath(const QString& from, const QString& extension) {
    return proposedSavePath(from, extension, protectedDirs(),
                            QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
}

} // namespace shallot
