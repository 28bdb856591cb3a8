#pragma once
// Replays an edit script (app/editor/document/edit_script.h) without any widget: the operations go
// to a bare EditorDocument and its undo stack. Checks on the way that the undo stack's
// index after each operation is the one the script recorded, and that the document at
// every "save" is the one the session saved (its digest).
#include "document/editor_document.h"

#include <QJsonObject>
#include <QString>
#include <vector>

namespace shallot {

struct ReplayResult {
    DocumentData data;   // the document after the last operation
    int operations = 0;  // operations replayed
    QString error;       // the first difference or failure ("" when none)
};

ReplayResult replayEditScript(const std::vector<QJsonObject>& ops, DocumentData start);

} // namespace shallot
