#pragma once
// Working beside another editor: many designers keep TrenchBroom for texturing and
// entities. FileWatch follows the file the editor opened and reports when another program
// wrote it: its bytes differ from the last ones this editor read or wrote. Editors save in
// steps (truncate, write, rename a temporary over it), so a change is reported once the
// file has been quiet for kSettleMs, and a file replaced by a rename is followed again.
#include <QByteArray>
#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>

namespace shallot {

class FileWatch : public QObject {
    Q_OBJECT
public:
    static constexpr int kSettleMs = 150;

    explicit FileWatch(QObject* parent = nullptr);
    // Follows `path` (empty: nothing); its current bytes are the known ones.
    void follow(const QString& path);
    // This editor wrote (or read) `path` now: its bytes are known, not a change.
    void noteOwnWrite(const QString& path);
    const QString& path() const { return path_; }

signals:
    // Another program changed the followed file.
    void changedOnDisk(const QString& path);

private:
    void check();

    QFileSystemWatcher watcher_;
    QTimer settle_;
    QString path_;
    QByteArray knownHash_;
};

} // namespace shallot
