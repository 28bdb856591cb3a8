#include "edit_replay.h"

#include "document/edit_script.h"

namespace shallot {

ReplayResult replayEditScript(const std::vector<QJsonObject>& ops, DocumentData start) {
    EditorDocument doc;
    doc.reset(std::move(start), QString());
    ReplayResult result;
    for (const QJsonObject& op : ops) {
        const QString where = QString("operation %1 (%2)").arg(result.operations + 1).arg(op["op"].toString());
        if (op["op"] == "save" && documentDigest(doc.data()) != op["digest"].toString()) {
            result.error = where + ": the replayed document differs from the one the session saved";
            break;
        }
        if (op["op"] == "reopen") {
            // What the session reopened is what it saved, which the last "save" checked.
            std::optional<DocumentData> reopened = roundTripped(doc.data(), result.error);
            if (!reopened) {
                result.error = where + ": " + result.error;
                break;
            }
            if (op.contains("grid")) reopened->gridSize = op["grid"].toInt(); // see SoakDriver::reopen
            doc.reset(std::move(*reopened), op["path"].toString());
        } else if (!applyEditOp(doc, op, result.error)) {
            result.error = where + ": " + result.error;
            break;
        }
        if (op.contains("index") && doc.undoStack()->index() != op["index"].toInt()) {
            result.error = QString("%1: undo stack index %2, the session had %3").arg(where).arg(doc.undoStack()->index()).arg(op["index"].toInt());
            break;
        }
        ++result.operations;
    }
    result.data = doc.data();
    return result;
}

} // namespace shallot
