#pragma once
// Edit scripts: a session's edits as JSON lines, one operation per line, in world terms
// (what was done, not which pixels were clicked). The soak test (tests/app/session) drives
// the editor with real mouse and key events, writes what each event was meant to do here,
// then replays the script on a bare EditorDocument and compares the documents; the kill
// test has the real editor play a script (shallot --play) while it is killed.
//
// Operations ("op"), each applied through the document's undo stack the way the editor's
// tools and menu commands do it:
//   select    {brushes: [i...], entities: [i...]}  the selection (not an undo step); entities
//                                              are positions in DocumentData::entities
//   entityAdd {classname, origin}              a point entity, appended and selected
//   entityKey {key, value}                     the key set in every selected entity
//   box       {mins, maxs}                     the box tool's brush, appended and selected
//   move      {delta}                          the selection (brushes and entities) translated
//   resize    {bounds: {mins, maxs}}           the selection's box mapped onto `bounds`
//   delete, duplicate {axis}                   brushes and entities; duplicates move one grid
//                                              step along axis
//   rotate    {axis, clockwise}                90 degrees around the selection's centre, snapped
//   flip      {axis}                           mirrored through the selection's centre
//   clip      {a, b, viewAxis, keep}           the plane through ab along viewAxis; keep is
//                                              "front", "back" or "both"
//   rayAdd    {from, to, path: true for a walking path (the Path tool)}, rayMove {ray, end: "from"|"to", point}
//   pose      {pose, mins, maxs}               the box of poses[pose]
//   grid      {size}                           the grid size (not an undo step)
//   undo      {steps}, redo {steps}
//   save      {path, digest}, reopen {path}    files: left to the caller (applyEditOp skips them)
// Vectors are arrays of three numbers. Every line may carry "index": the undo stack's
// index after the operation in the session that wrote it, which a replay checks.
#include "document/editor_document.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <optional>
#include <vector>

namespace shallot {

// Applies one operation to `doc`. False, with `error`, for an operation it does not know
// or whose arguments are wrong. "save" and "reopen" do nothing here.
bool applyEditOp(EditorDocument& doc, const QJsonObject& op, QString& error);

// Whether an operation is about files (save, reopen) rather than the document.
bool isFileOp(const QJsonObject& op);

// The document as a replay compares it: SHA-256 (hex) of its document.json with the camera
// and the working point left out (view state: moved without undo steps).
QString documentDigest(const DocumentData& data);

// What a saved and reopened document holds: `data` through document.json and back
// (nothing, with `error`, if that fails).
std::optional<DocumentData> roundTripped(const DocumentData& data, QString& error);

// Reading and writing scripts. readEditScript fails (empty result, `error` set) on a line
// that is not a JSON object with an "op".
QByteArray editOpLine(const QJsonObject& op);
std::vector<QJsonObject> readEditScript(const QString& path, QString& error);

// JSON helpers shared by the writers of scripts.
QJsonArray vecToJson(const Vec3& v);
Vec3 vecFromJson(const QJsonValue& v);

} // namespace shallot
