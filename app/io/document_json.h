#pragma once
// document.json, the heart of a .shallot file: a DocumentData as JSON.
//
// Schema version 1 (every number is a JSON number that reads back to the same double;
// vectors are arrays of 3 numbers; optional members are omitted when they hold the default):
//   format      "shallot-document"
//   version     1
//   bounds      {mins, maxs}
//   poses       [{name, mins, maxs, colour: "#rrggbbaa", blocking: "solid+monsterclip",
//                 nav: "step=24 drop=64 jump=45,128 slope=0.8"}]
//               (blocking: the contents that block the pose, parseContents; when absent,
//               defaultBlocking. nav: how it walks, navSettingsFields; absent: defaults)
//   brushes     [brush]   the static world (see DocumentData for who owns which brush)
//   worldKeys   [[key, value]]   worldspawn's key/values, in order
//   entities    [{keys: [[key, value]], brushes: [brush], line, patches: [text]}]
//   game        "quake" (when absent) | "quake2" | "halflife" | "quake3"
//   quake3Brushes  true: a .map export writes brushDef brushes
//   worldPatches   [text]: worldspawn's Quake 3 patches, verbatim
//   rays        [{name, from, to, walk, path}]   (path: a walking path, the Path tool)
//   camera      {position, yaw, pitch} (degrees)
//   grid        a power of two, 1..256
//   view        optional {pose, overlays: [name], cells, cellsByBitset, greyUnreachable,
//               hiddenEntities: [category]}: what the views showed (ViewState); absent in
//               documents saved before it was kept
//   tree        optional {entry: "tree.obsp", inputHash}: the archive holds the compiled
//               tree of the world whose compileInputHash is inputHash
// brush: {sides: [side], contents: "solid" | "clip" | "nonsolid" | a set "solid+detail"
//         (contentsName), excludedPoses: [name], source: {file, line, entity, brush}}
// side:  {plane: {normal, dist}, points: [p1, p2, p3] (the .map points, when it has them),
//         texture, textureParams, surface: [contents, flags, value] (Quake 2 and 3),
//         textureMatrix (Quake 3 brushDef), line}
#include "model/document_data.h"

#include <QJsonObject>
#include <QString>
#include <optional>
#include <string>

namespace shallot {

inline constexpr int kDocumentSchemaVersion = 1;
// The oldest schema version this build reads (older ones are migrated up on load).
inline constexpr int kOldestDocumentSchemaVersion = 1;
inline constexpr const char* kDocumentFormatName = "shallot-document";

// The JSON of `doc`; `treeInputHash` non-empty adds the "tree" member.
QJsonObject documentToJson(const DocumentData& doc, const std::string& treeInputHash);

// Reads a document.json object of any schema version from kOldestDocumentSchemaVersion
// to kDocumentSchemaVersion. On failure returns nothing and sets `error` to what is wrong
// and where ("brushes[3].sides[2].plane.dist must be a number"). `treeInputHash` receives
// the "tree" member's inputHash, or is cleared when there is none.
std::optional<DocumentData> documentFromJson(const QJsonObject& root, std::string& treeInputHash, QString& error);

} // namespace shallot
