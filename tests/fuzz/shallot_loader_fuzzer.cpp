// libFuzzer target: the .shallot loader (app/io/shallot_document.h), a zip archive holding
// document.json (app/io/document_json.h) and optionally tree.obsp.
//
// The first input byte is a mode. Even: the rest is the archive file itself (zip structure,
// entry names, sizes, checksums). Odd: the rest is "JSON [NUL TREE]" and the fuzzer zips it
// into a well-formed archive (document.json, and tree.obsp when a NUL is present), so that
// mutations reach the JSON and tree readers behind zip's checksums; mode bit 1 also fixes
// the tree's own checksums, bit 2 deflates instead of storing.
#include "fuzz_support.h"

#include "io/document_json.h"
#include "io/shallot_document.h"

#include <quazip.h>
#include <quazipfile.h>

#include <QBuffer>
#include <QFile>
#include <unistd.h>

using namespace shallot;

namespace {

QByteArray zipped(const QByteArray& json, const QByteArray* tree, bool deflate) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QuaZip zip(&buffer);
        if (!zip.open(QuaZip::mdCreate)) std::abort();
        const auto add = [&](const char* name, const QByteArray& data) {
            QuaZipFile out(&zip);
            if (!out.open(QIODevice::WriteOnly, QuaZipNewInfo(name), nullptr, 0, deflate ? Z_DEFLATED : 0, deflate ? 1 : 0))
                std::abort();
            out.write(data);
            out.close();
        };
        add(kShallotJsonEntry, json);
        if (tree) add(kShallotTreeEntry, *tree);
        zip.close();
    }
    return bytes;
}

const QString& scratchPath() {
    static const QString path = QString("/tmp/shallot_loader_fuzzer_%1.shallot").arg(::getpid());
    return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const uint8_t mode = data[0];
    QByteArray rest(reinterpret_cast<const char*>(data) + 1, qsizetype(size - 1));
    QByteArray file;
    if (mode & 1) {
        const qsizetype nul = rest.indexOf('\0');
        if (nul < 0) {
            file = zipped(rest, nullptr, mode & 4);
        } else {
            std::string tree = rest.mid(nul + 1).toStdString();
            if (mode & 2) fuzz::fixObspChecksums(tree);
            const QByteArray treeBytes = QByteArray::fromStdString(tree);
            file = zipped(rest.left(nul), &treeBytes, mode & 4);
        }
    } else {
        file = rest;
    }
    {
        QFile out(scratchPath());
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(file) != file.size()) std::abort();
    }
    const ShallotLoadResult result = loadShallot(scratchPath());
    if (!result.ok()) {
        SHALLOT_FUZZ_CHECK(result.error.startsWith(scratchPath() + ": ") && result.error.size() > scratchPath().size() + 2,
                           "error without the path and a message: " + result.error.toStdString());
        return 0;
    }
    // What was loaded saves as JSON that loads again.
    const LoadedShallot& loaded = *result.loaded;
    (void)hasCurrentTree(loaded);
    std::string hash;
    QString error;
    const std::optional<DocumentData> again = documentFromJson(documentToJson(loaded.doc, loaded.treeHash), hash, error);
    SHALLOT_FUZZ_CHECK(again.has_value(), "a loaded document does not read back: " + error.toStdString());
    SHALLOT_FUZZ_CHECK(hash == loaded.treeHash, "the tree hash changed");
    SHALLOT_FUZZ_CHECK(compileInputHash(again->world) == compileInputHash(loaded.doc.world),
                       "the compile input changed through JSON");
    return 0;
}
