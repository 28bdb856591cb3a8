// Help > Keys and Overlays (resources/help/keys.md) and the README show the same table of
// tools and keys: the help page is the source, and the README must carry its table verbatim.
#include <QFile>
#include <QStringList>
#include <QtTest>

namespace {

QString read(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
    return QString::fromUtf8(f.readAll());
}

// The lines of the Markdown table that starts with `header`.
QStringList tableAt(const QString& text, const QString& header) {
    const QStringList lines = text.split('\n');
    QStringList table;
    for (qsizetype i = lines.indexOf(header); i >= 0 && i < lines.size() && lines[i].startsWith('|'); ++i) table << lines[i];
    return table;
}

} // namespace

class HelpTextTest : public QObject {
    Q_OBJECT
private slots:
    void theReadmeShowsTheHelpPagesToolTable() {
        const QString header = "| Tool / action | Key | What it does |";
        const QStringList help = tableAt(read(SHALLOT_SOURCE_DIR "/resources/help/keys.md"), header);
        const QStringList readme = tableAt(read(SHALLOT_SOURCE_DIR "/README.md"), header);
        QVERIFY(help.size() > 10);
        QCOMPARE(readme, help);
    }

    void everyToolHasARowWithAKey() {
        const QStringList help = tableAt(read(SHALLOT_SOURCE_DIR "/resources/help/keys.md"), "| Tool / action | Key | What it does |");
        for (const char* tool : {"Select", "Box", "Clip", "Ray", "Inspect", "Pose", "Entity"}) {
            const QString row = help.filter(QString("| %1 | ").arg(tool)).value(0);
            QVERIFY2(!row.isEmpty(), tool);
            QCOMPARE(row.split(" | ").size(), 3);
        }
    }
};

QTEST_GUILESS_MAIN(HelpTextTest)
#include "help_text_test.moc"
