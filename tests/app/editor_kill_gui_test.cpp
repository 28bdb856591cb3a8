// SIGKILL at random moments: the real editor (shallot --play) plays an edit script that
// edits, saves every few operations and autosaves every 100 ms, and is killed. After every
// kill the saved document loads and is one of the saves of the script, the recovery file
// (when there is one) loads and holds one of the script's states, and an editor started
// on it offers the recovery and restores exactly that state.
//
// SHALLOT_KILLS (default 20) sets the number of kills, SHALLOT_KILL_SEED (default 1) the
// script and the moments.
#include "document/document_files.h"
#include "sanitizer_build.h"
#include "document/edit_script.h"
#include "main_window.h"
#include "views/view_surface.h"

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <random>

using namespace shallot;

namespace {

constexpr int kScriptOps = 3000;
constexpr int kSaveEveryOps = 12;
constexpr int kPlayIntervalMs = 4;
constexpr int kAutosaveMs = 100;
// Kills fall this long after the editor started: from before the first operation to well
// into the script (which takes several seconds to play). Under AddressSanitizer the editor
// starts and plays several times slower (in CI, 20 kills within 3 s saw one save only).
constexpr int kEarliestKillMs = 200;
constexpr int kLatestKillMs = kUnderAddressSanitizer ? 6000 : 3000;

int envInt(const char* name, int fallback) {
    bool ok = false;
    const int value = qEnvironmentVariableIntValue(name, &ok);
    return ok ? value : fallback;
}

// A random script of document edits with saves to `savePath`, generated on a bare document
// (which also gives the digest of every state it passes through and of every save).
struct KillScript {
    std::vector<QJsonObject> ops;
    QSet<QString> states, saves;
};

KillScript makeScript(DocumentData start, const QString& savePath, unsigned seed) {
    std::mt19937 rng(seed);
    auto randomInt = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    EditorDocument doc;
    doc.reset(std::move(start), QString());
    KillScript script;
    script.states.insert(documentDigest(doc.data()));
    for (int n = 1; n <= kScriptOps; ++n) {
        const int count = int(doc.brushes().size());
        const double grid = doc.data().gridSize;
        QJsonObject op;
        switch (n % kSaveEveryOps == 0 ? -1 : randomInt(0, 7)) {
        case -1: op = {{"op", "save"}, {"path", savePath}, {"digest", documentDigest(doc.data())}}; break;
        case 0: op = {{"op", "select"}, {"brushes", QJsonArray{randomInt(0, count - 1)}}}; break;
        case 1: op = {{"op", "move"}, {"delta", vecToJson(Vec3(randomInt(-2, 2), randomInt(-2, 2), randomInt(-1, 1)) * grid)}}; break;
        case 2: op = {{"op", count < 30 ? "duplicate" : "delete"}, {"axis", randomInt(0, 2)}}; break;
        case 3: op = {{"op", count - int(doc.selection().size()) > 8 ? "delete" : "duplicate"}, {"axis", randomInt(0, 2)}}; break;
        case 4: op = {{"op", "rotate"}, {"axis", randomInt(0, 2)}, {"clockwise", randomInt(0, 1) == 1}}; break;
        case 5: op = {{"op", "undo"}, {"steps", randomInt(1, 4)}}; break;
        case 6: op = {{"op", "redo"}, {"steps", randomInt(1, 3)}}; break;
        default:
            op = {{"op", "rayAdd"}, {"from", vecToJson(Vec3(randomInt(0, 40), randomInt(0, 40), 2) * grid)},
                  {"to", vecToJson(Vec3(randomInt(0, 40), randomInt(0, 40), 2) * grid)}};
        }
        QString error;
        if (!applyEditOp(doc, op, error)) qFatal("%s", qPrintable(error));
        if (op["op"] == "save") script.saves.insert(op["digest"].toString());
        script.states.insert(documentDigest(doc.data()));
        script.ops.push_back(op);
    }
    return script;
}

// The digest of a document file, or an empty string (and a test failure message in
// `error`) when it does not load.
QString digestOfFile(const QString& path, QString& error) {
    const std::optional<LoadedDocument> loaded = loadDocumentFile(path, error);
    return loaded ? documentDigest(loaded->data) : QString();
}

} // namespace

class EditorKillGuiTest : public QObject {
    Q_OBJECT

private:
    // Starts an interactive MainWindow (which offers the recovery file at startup),
    // answers the offer with `answer`, and returns the window; `offered` tells whether the
    // question came.
    std::unique_ptr<MainWindow> startAndAnswer(QMessageBox::StandardButton answer, bool& offered) {
        offered = false;
        QTimer answerer;
        QObject::connect(&answerer, &QTimer::timeout, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                offered = true;
                box->button(answer)->click();
            }
        });
        answerer.start(20);
        auto window = std::make_unique<MainWindow>(true);
        window->show();
        QTest::qWait(400); // the offer comes from the event loop once the window is up
        return window;
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void killedEditorsLeaveLoadableFilesAndARecoverableAutosave() {
        const int kills = envInt("SHALLOT_KILLS", 20);
        const unsigned seed = unsigned(envInt("SHALLOT_KILL_SEED", 1));
        QTemporaryDir dir;
        const QString savePath = dir.filePath("work.shallot");
        const QString start = SHALLOT_SAMPLE_MAPS "/figure1_rooms.map";
        QString error;
        std::optional<LoadedDocument> initial = loadDocumentFile(start, error);
        QVERIFY2(initial, qPrintable(error));
        const KillScript script = makeScript(std::move(initial->data), savePath, seed);
        QFile scriptFile(dir.filePath("script.jsonl"));
        QVERIFY(scriptFile.open(QIODevice::WriteOnly));
        for (const QJsonObject& op : script.ops) scriptFile.write(editOpLine(op));
        scriptFile.close();

        // The child editor keeps its settings and recovery file in the temporary folder.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_DATA_HOME", dir.filePath("data"));
        env.insert("XDG_CONFIG_HOME", dir.filePath("config"));
        const QString childRecovery = dir.filePath("data/Shallot/Shallot/recovery.shallot");

        std::mt19937 rng(seed);
        int withSave = 0, withRecovery = 0, offersAccepted = 0;
        QSet<QString> savesSeen;
        for (int kill = 0; kill < kills; ++kill) {
            QProcess editor;
            editor.setProcessEnvironment(env);
            editor.start(SHALLOT_EDITOR_BINARY, {"--autosave-ms", QString::number(kAutosaveMs), "--play", scriptFile.fileName(),
                                                 "--play-interval-ms", QString::number(kPlayIntervalMs), start});
            QVERIFY(editor.waitForStarted());
            const int killAfterMs = std::uniform_int_distribution<int>(kEarliestKillMs, kLatestKillMs)(rng);
            QVERIFY2(!editor.waitForFinished(killAfterMs), qPrintable("the editor exited by itself: " + editor.readAllStandardError()));
            editor.kill(); // SIGKILL
            QVERIFY(editor.waitForFinished(10000));
            const QString where = QString("kill %1 after %2 ms").arg(kill + 1).arg(killAfterMs);

            if (QFile::exists(savePath)) {
                const QString digest = digestOfFile(savePath, error);
                QVERIFY2(!digest.isEmpty(), qPrintable(where + ": the saved file does not load: " + error));
                QVERIFY2(script.saves.contains(digest), qPrintable(where + ": the saved file is none of the script's saves"));
                savesSeen.insert(digest);
                ++withSave;
            }
            if (!QFile::exists(childRecovery)) continue;
            ++withRecovery;
            const QString recovered = digestOfFile(childRecovery, error);
            QVERIFY2(!recovered.isEmpty(), qPrintable(where + ": the recovery file does not load: " + error));
            QVERIFY2(script.states.contains(recovered), qPrintable(where + ": the recovery file holds none of the script's states"));
            // An editor started now offers the recovery; accepting restores that state as an
            // unsaved, untitled document; declining removes the file. (This process has its
            // own recovery path, so the file is copied there.)
            QFile::remove(MainWindow::recoveryPath());
            QVERIFY(QFile::copy(childRecovery, MainWindow::recoveryPath()));
            QFile::remove(childRecovery); // the next child must not stop at the question
            const bool accept = kill % 2 == 0;
            bool offered = false;
            std::unique_ptr<MainWindow> window = startAndAnswer(accept ? QMessageBox::Yes : QMessageBox::No, offered);
            QVERIFY2(offered, qPrintable(where + ": no recovery offer"));
            if (accept) {
                QCOMPARE(documentDigest(window->editor().document().data()), recovered);
                QVERIFY(window->editor().document().filePath().isEmpty());
                ++offersAccepted;
            } else {
                QVERIFY(!QFile::exists(MainWindow::recoveryPath()));
            }
            window.reset();
            QFile::remove(MainWindow::recoveryPath());
        }
        qInfo().noquote() << QString("kills: %1; a saved file after %2 of them (%3 different saves), a recovery file after %4, "
                                     "%5 recoveries accepted and checked")
                                 .arg(kills).arg(withSave).arg(savesSeen.size()).arg(withRecovery).arg(offersAccepted);
        // The kills must have hit the editor at work, not only before it started editing.
        QVERIFY(savesSeen.size() >= 2);
        QVERIFY(withRecovery >= 1);
    }
};

int main(int argc, char** argv) {
    ViewSurface::prepareApplication();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("ShallotTest");
    EditorKillGuiTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "editor_kill_gui_test.moc"
