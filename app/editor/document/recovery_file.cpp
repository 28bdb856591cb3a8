#include "document/recovery_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace shallot {

namespace {
// A note older than the autosave by more than this names another autosave's level (the note
// is written just after the autosave it goes with).
constexpr int kNoteAgeToleranceSeconds = 5;

QString notePath() { return RecoveryFile::path() + ".level"; }

// "3 minutes ago", "2 hours ago", "yesterday"...: how long ago, in the largest whole unit.
QString agoText(const QDateTime& then, const QDateTime& now) {
    const qint64 seconds = std::max<qint64>(0, then.secsTo(now));
    if (seconds < 60) return "moments ago";
    if (seconds < 3600) return QString("%1 minute%2 ago").arg(seconds / 60).arg(seconds / 60 == 1 ? "" : "s");
    if (seconds < 2 * 86400) return QString("%1 hour%2 ago").arg(seconds / 3600).arg(seconds / 3600 == 1 ? "" : "s");
    return QString("%1 days ago").arg(seconds / 86400);
}
} // namespace

QString RecoveryFile::path() {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return dir + "/recovery.shallot";
}

void RecoveryFile::noteLevel(const QString& levelFile) {
    QFile note(notePath());
    if (!note.open(QIODevice::WriteOnly | QIODevice::Truncate)) return; // the offer then names no level
    note.write(levelFile.toUtf8());
}

QString RecoveryFile::level() {
    // Only a note as new as the autosave names its level (an older editor's autosave has none).
    if (QFileInfo(notePath()).lastModified() < QFileInfo(path()).lastModified().addSecs(-kNoteAgeToleranceSeconds)) return {};
    QFile note(notePath());
    if (!note.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(note.readAll()).trimmed();
}

void RecoveryFile::remove() {
    QFile::remove(path());
    QFile::remove(notePath());
}

QString recoveryOfferText(const QString& levelFile, const QDateTime& savedAt, const QDateTime& now, const QString& openNow) {
    const QString level = levelFile.isEmpty() ? QString("an untitled level") : QFileInfo(levelFile).fileName();
    QString text = QString("Shallot did not close normally. Unsaved work on %1 was autosaved at %2 (%3).\n\n")
                       .arg(level, savedAt.toString("HH:mm"), agoText(savedAt, now));
    text += "Recover it? It opens as an untitled level: save it under a name of your choice.";
    if (!openNow.isEmpty()) text += QString(" It replaces %1, which stays as it is on disk.").arg(QFileInfo(openNow).fileName());
    text += "\nNo deletes the autosave.";
    return text;
}

} // namespace shallot
