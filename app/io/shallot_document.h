#pragma once
// The .shallot document: a zip archive (QuaZip) holding
//   document.json   the DocumentData (see io/document_json.h)
//   tree.obsp       optional: the compiled tree (io/obsp_format.h), tagged in document.json
//                   with the compileInputHash of the world it was compiled from
//   thumbnail.png   optional: a picture of the view
// Saving never loses data: the archive is written to a temporary file beside the target
// and renamed over it only when complete. Loading is all or nothing and treats the file
// as untrusted (see the limits below).
#include "compile/bsp_tree.h"
#include "io/obsp_format.h"
#include "model/document_data.h"

#include <QImage>
#include <QString>
#include <optional>
#include <string>

namespace shallot {

inline constexpr const char* kShallotJsonEntry = "document.json";
inline constexpr const char* kShallotTreeEntry = "tree.obsp";
inline constexpr const char* kShallotThumbnailEntry = "thumbnail.png";

// Limits for reading untrusted archives. Entry sizes are counted while decompressing, so a
// zip bomb stops at the limit whatever its headers claim.
inline constexpr qint64 kMaxShallotFileBytes = qint64(2) << 30;   // the archive on disk
inline constexpr int kMaxShallotEntries = 16;                     // we write 3
inline constexpr qint64 kMaxShallotJsonBytes = qint64(256) << 20; // about 1M brush sides
inline constexpr qint64 kMaxShallotTreeBytes = qint64(kObspMaxFileBytes);
inline constexpr qint64 kMaxShallotThumbnailBytes = qint64(16) << 20;
inline constexpr qint64 kMaxShallotTotalBytes = qint64(1) << 30; // all entries, uncompressed

// SHA-256 (hex) of what the compiler reads from `world`: bounds, poses (names and boxes)
// and brushes (planes, contents, excluded poses), in order. Textures, points and source
// lines do not change the tree and are left out; -0 counts as 0.
std::string compileInputHash(const World& world);

struct SaveOptions {
    const BspTree* tree = nullptr; // stored as tree.obsp when set
    // compileInputHash of the world `tree` was compiled from; empty means doc.world's
    // (the tree is up to date). A stale tree keeps its own hash so it is not taken as current.
    std::string treeInputHash;
    QImage thumbnail;              // stored as thumbnail.png unless null
};

// Saves atomically (QSaveFile: a temporary file in the same folder, flushed, synced and
// renamed over `path`). Returns an error message, or an empty string on success; on error
// the file at `path` is untouched.
QString saveShallot(const DocumentData& doc, const QString& path, const SaveOptions& options = {});

struct LoadedShallot {
    DocumentData doc;
    std::optional<BspTree> tree;
    std::string treeHash; // the input hash the tree was stored with (empty without a tree)
    QImage thumbnail;     // null when the archive has none
};

struct ShallotLoadResult {
    std::optional<LoadedShallot> loaded; // set on success
    QString error;                       // "path: what is wrong" on failure

    bool ok() const { return loaded.has_value(); }
};

// Reads a .shallot file: everything or an error (unsafe entry names, sizes over the
// limits, corrupt zip, JSON or tree, an unknown schema version...). Writes nothing.
ShallotLoadResult loadShallot(const QString& path);

// Whether the stored tree was compiled from the loaded world (so it can be shown without
// recompiling).
bool hasCurrentTree(const LoadedShallot& loaded);

} // namespace shallot
