// Save As and Export never propose to write over the installed sample maps or into a
// read-only place (issue 37, item 5): the path their dialogs open at, as the window
// computes it, for the installed sample, a read-only copy, a read-only folder and a
// writable one.
#include "document/save_location.h"
#include "gui_test_window.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace shallot;

namespace {

QString documents() { return QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation); }

bool copyTo(const QString& from, const QString& to) { return QFile::copy(from, to) && QFile::exists(to); }

} // namespace

class SaveLocationGuiTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    const QString sample_ = QString(SHALLOT_SAMPLE_MAPS) + "/figure1_rooms.map";

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        QVERIFY(!documents().isEmpty());
    }

    // The installed sample (found from the program's folder as the editor finds it) is
    // protected, through the build tree's link and through the sources' path alike.
    void theInstalledSampleIsSavedToTheDocumentsFolder() {
        const QString maps = installedMapsDir();
        QVERIFY2(!maps.isEmpty(), "no installed maps folder next to the test program");
        const QString installed = maps + "/figure1_rooms.map";
        QVERIFY(QFile::exists(installed));
        QVERIFY(isUnder(installed, protectedDirs()));
        QVERIFY(isUnder(sample_, protectedDirs())); // the link's target
        auto w = test::openWindow(installed);
        QCOMPARE(w->proposedSavePath(".shallot"), documents() + "/figure1_rooms.shallot");
        QCOMPARE(w->proposedSavePath(".map"), documents() + "/figure1_rooms.map");
    }

    void aReadOnlyCopyIsSavedToTheDocumentsFolder() {
        const QString file = dir_.filePath("readonly_rooms.map");
        QVERIFY(copyTo(sample_, file));
        QVERIFY(QFile::setPermissions(file, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
        auto w = test::openWindow(file);
        QCOMPARE(w->proposedSavePath(".shallot"), documents() + "/readonly_rooms.shallot");
        QCOMPARE(w->proposedSavePath(".map"), documents() + "/readonly_rooms.map");
    }

    void aFileInAReadOnlyFolderIsSavedToTheDocumentsFolder() {
        const QString folder = dir_.filePath("locked");
        QVERIFY(QDir().mkpath(folder));
        const QString file = folder + "/locked_rooms.map";
        QVERIFY(copyTo(sample_, file)); // the file itself stays writable
        QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner));
        auto w = test::openWindow(file);
        QCOMPARE(w->proposedSavePath(".shallot"), documents() + "/locked_rooms.shallot");
        QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    }

    // A level of the user's own is saved beside itself, as before.
    void aWritableFileIsSavedBesideItself() {
        const QString file = dir_.filePath("own_rooms.map");
        QVERIFY(copyTo(sample_, file));
        QVERIFY(QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner));
        auto w = test::openWindow(file);
        QCOMPARE(w->proposedSavePath(".shallot"), dir_.filePath("own_rooms.shallot"));
        QCOMPARE(w->proposedSavePath(".map"), dir_.filePath("own_rooms.map"));
        // ... unless the file it would write there is read-only.
        const QString locked = dir_.filePath("own_rooms.shallot");
        QVERIFY(copyTo(sample_, locked));
        QVERIFY(QFile::setPermissions(locked, QFile::ReadOwner));
        QCOMPARE(w->proposedSavePath(".shallot"), documents() + "/own_rooms.shallot");
        QCOMPARE(w->proposedSavePath(".map"), dir_.filePath("own_rooms.map"));
    }

    void aNewLevelStartsInTheDocumentsFolder() {
        auto w = test::openWindow(QString());
        QCOMPARE(w->proposedSavePath(".shallot"), documents() + "/untitled.shallot");
    }

    // The rule alone, with a made-up installation.
    void protectedFoldersAndTheirLinks() {
        const QString prefix = dir_.filePath("prefix/share/shallot/maps");
        QVERIFY(QDir().mkpath(prefix));
        const QString link = dir_.filePath("maps_link");
        QVERIFY(QFile::link(prefix, link));
        const QStringList guarded{prefix};
        const QString docs = dir_.filePath("docs");
        QCOMPARE(proposedSavePath(prefix + "/a.map", ".shallot", guarded, docs), docs + "/a.shallot");
        QCOMPARE(proposedSavePath(link + "/a.map", ".map", guarded, docs), docs + "/a.map");
        QCOMPARE(proposedSavePath(dir_.filePath("prefix/share/b.map"), ".map", guarded, docs), dir_.filePath("prefix/share/b.map"));
        QVERIFY(!isUnder(dir_.filePath("prefix/share/shallot/mapsx/a.map"), guarded)); // a prefix of the name is not the folder
    }
};

QTEST_MAIN(SaveLocationGuiTest)
#include "save_location_gui_test.moc"
