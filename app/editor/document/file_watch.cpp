#include "document/file_watch.h"

#include <QCryptographicHash>
#include <QFile>

namespace shallot {

namespace {

QByteArray contents(const QString& path, bool* ok = nullptr) {
    QFile f(path);
    const bool opened = f.open(QIODevice::ReadOnly);
    if (ok) *ok = opened;
    return opened ? f.readAll() : QByteArray();
}

QByteArray hashOf(const QByteArray& bytes) { return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256); }

} // namespace

FileWatch::FileWatch(QObject* parent) : QObject(parent) {
    settle_.setSingleShot(true);
    settle_.setInterval(kSettleMs);
    connect(&settle_, &QTimer::timeout, this, &FileWatch::check);
    connect(&watcher_, &QFileSystemWatcher::fileChanged, this, [this] { settle_.start(); });
    // A save by rename removes the watched file: the directory changes, and it is followed again.
    connect(&watcher_, &QFileSystemWatcher::directoryChanged, this, [this] { settle_.start(); });
}

void FileWatch::follow(const QString& path) {
    if (!watcher_.files().isEmpty()) watcher_.removePaths(watcher_.files());
    if (!watcher_.directories().isEmpty()) watcher_.removePaths(watcher_.directories());
    path_ = path;
    knownHash_.clear();
    if (path.isEmpty()) return;
    knownHash_ = hashOf(contents(path));
    watcher_.addPath(path);
    const int slash = int(path.lastIndexOf('/'));
    watcher_.addPath(slash > 0 ? path.left(slash) : QString("."));
}

void FileWatch::noteOwnWrite(const QString& path) {
    if (path == path_) knownHash_ = hashOf(contents(path));
}

void FileWatch::check() {
    if (path_.isEmpty()) return;
    if (!watcher_.files().contains(path_) && QFile::exists(path_)) watcher_.addPath(path_);
    bool ok = false;
    const QByteArray hash = hashOf(contents(path_, &ok));
    if (!ok) return; // removed, or in the middle of a rename: the next change tells
    if (hash == knownHash_) return;
    knownHash_ = hash;
    emit changedOnDisk(path_);
}

} // namespace shallot
