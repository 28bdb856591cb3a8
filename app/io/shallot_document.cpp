#include "io/shallot_document.h"

#include "io/document_json.h"

#include <quazip.h>
#include <quazipfile.h>

#include <QBuffer>
#include <QCryptographicHash>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QtEndian>
#include <cstring>
#include <sstream>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <unistd.h>
#endif

namespace shallot {

namespace {

// zlib's fastest level: on librequake_e3m4 the default (6) makes the tree 20% smaller
// (12.8 MB instead of 16.0 MB) but deflates 3.3 times slower (2.9 s instead of 0.86 s).
constexpr int kJsonCompression = 1;
constexpr int kTreeCompression = 1;

// What the compiler reads, as bytes in a fixed layout (little-endian, -0 written as 0).
class CanonicalBytes {
public:
    void add(double v) {
        if (v == 0.0) v = 0.0;
        quint64 bits;
        std::memcpy(&bits, &v, sizeof bits);
        addRaw(qToLittleEndian(bits));
    }
    void add(const Vec3& v) {
        for (int i = 0; i < 3; ++i) add(v[i]);
    }
    void addCount(size_t n) { addRaw(qToLittleEndian(quint64(n))); }
    void add(const std::string& s) {
        addCount(s.size());
        bytes_.append(s.data(), qsizetype(s.size()));
    }
    const QByteArray& bytes() const { return bytes_; }

private:
    template <typename T>
    void addRaw(T v) {
        bytes_.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    QByteArray bytes_;
};

// ------------------------------------------------------------------------------ saving

struct Entry {
    const char* name;
    const QByteArray* bytes;
    int level; // zlib level; 0 stores
};

QString writeEntry(QuaZip& zip, const Entry& entry) {
    QuaZipFile out(&zip);
    if (!out.open(QIODevice::WriteOnly, QuaZipNewInfo(entry.name), nullptr, 0, entry.level ? Z_DEFLATED : 0,
                  entry.level))
        return QString("cannot add %1 (zip error %2)").arg(entry.name).arg(out.getZipError());
    if (out.write(*entry.bytes) != entry.bytes->size())
        return QString("cannot write %1: %2").arg(entry.name, out.errorString());
    out.close();
    if (out.getZipError() != ZIP_OK) return QString("cannot write %1 (zip error %2)").arg(entry.name).arg(out.getZipError());
    return {};
}

// Writes the archive into `device`, which the caller opened and will commit.
QString writeArchive(QIODevice& device, const std::vector<Entry>& entries) {
    QuaZip zip(&device);
    zip.setAutoClose(false); // QuaZip would commit a QSaveFile on close, even after an error
    if (!zip.open(QuaZip::mdCreate)) return QString("cannot start the archive (zip error %1)").arg(zip.getZipError());
    for (const Entry& e : entries) {
        const QString error = writeEntry(zip, e);
        if (!error.isEmpty()) return error;
    }
    zip.close();
    if (zip.getZipError() != ZIP_OK) return QString("cannot finish the archive (zip error %1)").arg(zip.getZipError());
    return {};
}

// Makes the rename durable: syncs the folder that holds `path` (POSIX only).
void syncDirectory(const QString& path) {
#ifdef Q_OS_UNIX
    const int fd = ::open(QFile::encodeName(QFileInfo(path).absolutePath()).constData(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
#else
    Q_UNUSED(path);
#endif
}

// ------------------------------------------------------------------------------ loading

struct LoadFailure {
    QString message;
};

// Relative, without "..": an archive entry that could never name a file outside a folder.
bool isSafeEntryName(QString name) {
    name.replace('\\', '/');
    if (name.isEmpty() || name.startsWith('/') || (name.size() >= 2 && name[1] == ':')) return false;
    return !name.split('/').contains(QStringLiteral(".."));
}

// Reads the archive's current entry, stopping as soon as it exceeds `limit` or `budget`
// bytes (decremented by what was read).
QByteArray readEntry(QuaZip& zip, const QString& name, qint64 limit, qint64& budget) {
    QuaZipFileInfo64 info;
    zip.getCurrentFileInfo(&info);
    const qint64 allowed = std::min(limit, budget);
    const auto tooLarge = [&] {
        return LoadFailure{QString("%1 is larger than %2 bytes uncompressed%3")
                               .arg(name)
                               .arg(allowed)
                               .arg(allowed < limit ? " (the archive's total limit)" : "")};
    };
    if (info.uncompressedSize > quint64(allowed)) throw tooLarge();
    QuaZipFile file(&zip);
    if (!file.open(QIODevice::ReadOnly))
        throw LoadFailure{QString("%1 cannot be read (zip error %2)").arg(name).arg(file.getZipError())};
    QByteArray data;
    char chunk[1 << 16];
    for (;;) {
        const qint64 n = file.read(chunk, sizeof chunk);
        if (n < 0) throw LoadFailure{QString("%1 is corrupt (cannot be decompressed)").arg(name)};
        if (n == 0) break;
        if (data.size() + n > allowed) throw tooLarge();
        data.append(chunk, n);
    }
    file.close();
    // The checksum is only checked when the data gave as many bytes as the header claims.
    if (quint64(data.size()) != info.uncompressedSize)
        throw LoadFailure{QString("%1 is corrupt (%2 bytes instead of %3)").arg(name).arg(data.size()).arg(info.uncompressedSize)};
    if (file.getZipError() != UNZ_OK)
        throw LoadFailure{QString("%1 is corrupt (zip error %2: checksum mismatch)").arg(name).arg(file.getZipError())};
    budget -= data.size();
    return data;
}

struct ArchiveEntries {
    std::optional<QByteArray> json, tree, thumbnail;
};

ArchiveEntries readEntries(const QString& path) {
    const QFileInfo file(path);
    if (!file.isFile()) throw LoadFailure{"no such file"};
    if (file.size() > kMaxShallotFileBytes)
        throw LoadFailure{QString("the file is larger than %1 bytes").arg(kMaxShallotFileBytes)};
    QuaZip zip(path);
    if (!zip.open(QuaZip::mdUnzip))
        throw LoadFailure{QString("not a readable zip archive: truncated or corrupt (zip error %1)")
                              .arg(zip.getZipError())};
    if (zip.getEntriesCount() > kMaxShallotEntries)
        throw LoadFailure{QString("the archive has %1 entries; at most %2 are allowed")
                              .arg(zip.getEntriesCount())
                              .arg(kMaxShallotEntries)};
    ArchiveEntries entries;
    qint64 budget = kMaxShallotTotalBytes;
    for (bool more = zip.goToFirstFile(); more; more = zip.goToNextFile()) {
        const QString name = zip.getCurrentFileName();
        if (!isSafeEntryName(name)) throw LoadFailure{QString("unsafe entry name \"%1\" (absolute or with \"..\")").arg(name)};
        std::optional<QByteArray>* slot = name == kShallotJsonEntry        ? &entries.json
                                          : name == kShallotTreeEntry      ? &entries.tree
                                          : name == kShallotThumbnailEntry ? &entries.thumbnail
                                                                           : nullptr;
        if (!slot) continue; // an entry of no concern to this version: never read
        if (slot->has_value()) throw LoadFailure{QString("the archive holds %1 twice").arg(name)};
        const qint64 limit = slot == &entries.json   ? kMaxShallotJsonBytes
                             : slot == &entries.tree ? kMaxShallotTreeBytes
                                                     : kMaxShallotThumbnailBytes;
        *slot = readEntry(zip, name, limit, budget);
    }
    if (zip.getZipError() != UNZ_OK)
        throw LoadFailure{QString("the archive's directory is corrupt (zip error %1)").arg(zip.getZipError())};
    return entries;
}

LoadedShallot parseEntries(const ArchiveEntries& entries) {
    if (!entries.json) throw LoadFailure{QString("no %1: not a Shallot document").arg(kShallotJsonEntry)};
    QJsonParseError parseError;
    const QJsonDocument json = QJsonDocument::fromJson(*entries.json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        throw LoadFailure{QString("%1: invalid JSON at byte %2: %3")
                              .arg(kShallotJsonEntry)
                              .arg(parseError.offset)
                              .arg(parseError.errorString())};
    if (!json.isObject()) throw LoadFailure{QString("%1 must hold a JSON object").arg(kShallotJsonEntry)};

    LoadedShallot loaded;
    QString error;
    std::optional<DocumentData> doc = documentFromJson(json.object(), loaded.treeHash, error);
    if (!doc) throw LoadFailure{QString("%1: %2").arg(kShallotJsonEntry, error)};
    loaded.doc = std::move(*doc);

    if (loaded.treeHash.empty() && entries.tree)
        throw LoadFailure{QString("%1 has no input hash in %2").arg(kShallotTreeEntry, kShallotJsonEntry)};
    if (!loaded.treeHash.empty()) {
        if (!entries.tree) throw LoadFailure{QString("%1 names a compiled tree but the archive has no %2")
                                                 .arg(kShallotJsonEntry, kShallotTreeEntry)};
        std::istringstream in(entries.tree->toStdString());
        ObspReadResult tree = readObsp(in, size_t(kMaxShallotTreeBytes));
        if (!tree.tree) throw LoadFailure{QString("%1: %2").arg(kShallotTreeEntry, QString::fromStdString(tree.error))};
        loaded.tree = std::move(tree.tree);
    }
    if (entries.thumbnail && !loaded.thumbnail.loadFromData(*entries.thumbnail, "PNG"))
        throw LoadFailure{QString("%1 is not a readable PNG image").arg(kShallotThumbnailEntry)};
    return loaded;
}

} // namespace

std::string compileInputHash(const World& world) {
    CanonicalBytes c;
    // Change this tag when the compiler gives a different tree for the same input, so that
    // trees stored by older builds are recompiled.
    c.add(std::string("shallot compile input 2")); // 2: contents sets, poses' blocking sets
    c.add(world.bounds.mins);
    c.add(world.bounds.maxs);
    c.addCount(world.poses.size());
    for (const Pose& p : world.poses) {
        c.add(p.name);
        c.add(p.mins);
        c.add(p.maxs);
        c.addCount(size_t(p.blockingSet()));
    }
    c.addCount(world.brushes.size());
    for (const Brush& b : world.brushes) {
        c.addCount(size_t(b.contents));
        c.addCount(b.excludedPoses.size());
        for (const std::string& name : b.excludedPoses) c.add(name);
        c.addCount(b.sides.size());
        for (const BrushSide& s : b.sides) {
            c.add(s.plane.normal);
            c.add(s.plane.dist);
        }
    }
    return QCryptographicHash::hash(c.bytes(), QCryptographicHash::Sha256).toHex().toStdString();
}

QString saveShallot(const DocumentData& doc, const QString& path, const SaveOptions& options) {
    // Everything that can fail without touching the disk comes first.
    std::string treeHash;
    QByteArray tree;
    if (options.tree) {
        const std::string problem = obspWriteProblem(*options.tree);
        if (!problem.empty()) return path + ": the compiled tree cannot be saved: " + QString::fromStdString(problem);
        std::ostringstream out;
        writeObsp(*options.tree, out);
        tree = QByteArray::fromStdString(out.str());
        treeHash = options.treeInputHash.empty() ? compileInputHash(doc.world) : options.treeInputHash;
    }
    const QByteArray json = QJsonDocument(documentToJson(doc, treeHash)).toJson(QJsonDocument::Compact);
    QByteArray png;
    if (!options.thumbnail.isNull()) {
        QBuffer buffer(&png);
        if (!buffer.open(QIODevice::WriteOnly) || !options.thumbnail.save(&buffer, "PNG"))
            return path + ": cannot encode the thumbnail as PNG";
    }
    std::vector<Entry> entries{{kShallotJsonEntry, &json, kJsonCompression}};
    if (options.tree) entries.push_back({kShallotTreeEntry, &tree, kTreeCompression});
    if (!png.isEmpty()) entries.push_back({kShallotThumbnailEntry, &png, 0}); // PNG is compressed already

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return path + ": cannot write: " + file.errorString();
    const QString error = writeArchive(file, entries);
    if (!error.isEmpty()) {
        file.cancelWriting();
        return path + ": " + error;
    }
    if (!file.commit()) return path + ": cannot save: " + file.errorString();
    syncDirectory(path);
    return {};
}

ShallotLoadResult loadShallot(const QString& path) {
    ShallotLoadResult result;
    try {
        result.loaded = parseEntries(readEntries(path));
    } catch (const LoadFailure& f) {
        result.error = path + ": " + f.message;
    }
    return result;
}

bool hasCurrentTree(const LoadedShallot& loaded) {
    return loaded.tree && loaded.treeHash == compileInputHash(loaded.doc.world);
}

} // namespace shallot
