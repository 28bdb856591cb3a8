// Hostile .shallot documents (issue 9, docs/bad-input.md): the resource limits of the loader
// (a gigabyte file, deep nesting, a 100 MB line, 100,000 brushes) and the inputs the
// shallot_loader fuzzer found. Archive structure (zip bombs, traversal, truncation) is
// covered by document_io_test.
#include "compile/compiler.h"
#include "io/document_json.h"
#include "io/shallot_document.h"

#include <quazip.h>
#include <quazipfile.h>

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <sys/resource.h>

using namespace shallot;

namespace {

double peakRssMiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

// A zip archive holding document.json (stored, so the JSON bytes are in the file as given).
void writeDocument(const QString& path, const QByteArray& json) {
    QuaZip zip(path);
    QVERIFY(zip.open(QuaZip::mdCreate));
    QuaZipFile out(&zip);
    QVERIFY(out.open(QIODevice::WriteOnly, QuaZipNewInfo(kShallotJsonEntry), nullptr, 0, 0, 0));
    QCOMPARE(out.write(json), json.size());
    out.close();
    zip.close();
    QCOMPARE(zip.getZipError(), 0);
}

QByteArray minimalJson(const QByteArray& extraMembers = {}) {
    return "{\"format\":\"shallot-document\",\"version\":1" + extraMembers + "}";
}

} // namespace

class HostileDocumentTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }

    // Loads `file` expecting exactly the error "file: message", within `seconds`.
    void expectError(const QString& file, const QString& message, double seconds = 5.0) {
        QElapsedTimer clock;
        clock.start();
        const ShallotLoadResult r = loadShallot(file);
        QVERIFY2(!r.ok(), qPrintable(file + " loaded"));
        QCOMPARE(r.error, file + ": " + message);
        QVERIFY2(clock.elapsed() < seconds * 1000, qPrintable(QString("took %1 ms").arg(clock.elapsed())));
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void gigabyteFilesAreRefusedWithoutBeingRead() {
        const double rss = peakRssMiB();
        for (const qint64 size : {qint64(1000000000), kMaxShallotFileBytes + 1}) {
            QFile f(path("sparse.shallot"));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            QVERIFY(f.resize(size)); // sparse: no disk blocks
            f.close();
            QElapsedTimer clock;
            clock.start();
            const ShallotLoadResult r = loadShallot(path("sparse.shallot"));
            QVERIFY(!r.ok());
            QVERIFY2(r.error.startsWith(path("sparse.shallot") + (size > kMaxShallotFileBytes
                                                                      ? ": the file is larger than 2147483648 bytes"
                                                                      : ": not a readable zip archive: truncated or corrupt")),
                     qPrintable(r.error));
            QVERIFY2(clock.elapsed() < 5000, qPrintable(QString("took %1 ms").arg(clock.elapsed())));
        }
        QVERIFY(peakRssMiB() - rss < 64);
        QFile::remove(path("sparse.shallot"));
    }

    void hundredThousandNestedBracketsAreAnError() {
        writeDocument(path("nested.shallot"), QByteArray(100000, '['));
        expectError(path("nested.shallot"), "document.json: invalid JSON at byte 1025: too deeply nested document");
        QByteArray objects;
        for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
        writeDocument(path("nested_objects.shallot"), minimalJson(",\"camera\":" + objects));
        const QString error = loadShallot(path("nested_objects.shallot")).error;
        QVERIFY2(error.contains("document.json: invalid JSON at byte ") && error.endsWith(": too deeply nested document"),
                 qPrintable(error));
    }

    void hundredMegabyteLineLoads() {
        // document.json is one line; 100 MB of it in one texture name is under the 256 MiB limit.
        const QByteArray name(100 << 20, 't');
        const QByteArray side = "{\"plane\":{\"normal\":[0,0,1],\"dist\":0},\"texture\":\"" + name + "\"}";
        writeDocument(path("long.shallot"), minimalJson(",\"brushes\":[{\"sides\":[" + side + "]}]"));
        QElapsedTimer clock;
        clock.start();
        const ShallotLoadResult r = loadShallot(path("long.shallot"));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.loaded->doc.world.brushes.at(0).sides.at(0).texture.size(), size_t(name.size()));
        qInfo("100 MB line loaded in %lld ms, peak RSS %.0f MiB", clock.elapsed(), peakRssMiB());
        QFile::remove(path("long.shallot"));
    }

    void hundredThousandBrushesLoad() {
        DocumentData doc;
        for (int i = 0; i < 100000; ++i) {
            const Vec3 lo((i % 47) * 32, (i / 47 % 47) * 32, (i / (47 * 47)) * 32);
            doc.world.brushes.push_back(Brush::box(lo, lo + Vec3::Constant(16)));
        }
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(saveShallot(doc, path("big.shallot")), QString());
        const qint64 saveMs = clock.restart();
        const ShallotLoadResult r = loadShallot(path("big.shallot"));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.loaded->doc.world.brushes.size(), size_t(100000));
        qInfo("100,000 brushes: %lld bytes, saved in %lld ms, loaded in %lld ms, peak RSS %.0f MiB",
              QFileInfo(path("big.shallot")).size(), saveMs, clock.elapsed(), peakRssMiB());
    }
};

QTEST_GUILESS_MAIN(HostileDocumentTest)
#include "hostile_document_test.moc"
