#pragma once
// The autosave of unsaved work (recovery.shallot in the application's data folder) and the
// name of the level it was made from, kept beside it, so that the offer to recover it after
// a crash says what it holds: the offer comes when the editor starts again, often with
// another level open by then.
#include <QDateTime>
#include <QString>

namespace shallot {

class RecoveryFile {
public:
    // recovery.shallot in the application's data folder (made when missing).
    static QString path();
    // After the autosave was written: the level it holds (its file, or empty when untitled).
    static void noteLevel(const QString& levelFile);
    // The level noted with the autosave; empty when untitled or when nothing was noted.
    static QString level();
    // The autosave and its note.
    static void remove();
};

// What the offer to recover says: the level, when it was autosaved, what Yes and No do,
// and what Yes replaces when a level is open (`openNow`, its file; empty when none).
QString recoveryOfferText(const QString& levelFile, const QDateTime& savedAt, const QDateTime& now, const QString& openNow);

} // namespace shallot
