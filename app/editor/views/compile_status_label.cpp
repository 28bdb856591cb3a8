#include "views/compile_status_label.h"

#include "editor.h"
#include "services/compile_service.h"
#include "services/overlay_controller.h"
#include "services/spawn_check_service.h"

namespace shallot {

namespace {

// 0.4 -> "400 µs", 12.3 -> "12 ms" (with `decimals` after the point for milliseconds).
QString duration(double ms, int decimals = 0) {
    return ms < 1 ? QString("%1 µs").arg(ms * 1000, 0, 'f', 0) : QString("%1 ms").arg(ms, 0, 'f', decimals);
}

} // namespace

CompileStatusLabel::CompileStatusLabel(Editor& editor, QWidget* parent) : QLabel("No compile yet", parent), editor_(editor) {
    setObjectName("compileStatus");
    CompileService& compiler = editor_.compiler();
    connect(&compiler, &CompileService::compileStarted, this, [this] { setText("Compiling..."); });
    connect(&compiler, &CompileService::compiled, this, &CompileStatusLabel::showCompiled);
    connect(&compiler, &CompileService::compileFailed, this, [this](quint64, const QString& message) { setText("Compile failed: " + message); });
    connect(&editor_.overlays(), &OverlayController::overlaysUpdated, this, &CompileStatusLabel::showOverlaysShown);
}

void CompileStatusLabel::showCompiled(const std::shared_ptr<const CompiledWorld>& compiled) {
    const CompileStats& s = compiled->result->stats;
    // The figures in the tooltip: the status bar keeps its width for messages.
    details_ = QString("%1 nodes, %2 leaves, depth %3, %4 portals")
                   .arg(s.nodes)
                   .arg(s.leaves)
                   .arg(s.depth)
                   .arg(compiled->result->onion.portals.size());
    setText("Compiled in " + duration(compiled->milliseconds));
    setToolTip(details_);
}

void CompileStatusLabel::showOverlaysShown(quint64 revision) {
    if (revision == overlaysShownFor_) return; // only an edit's first overlays
    overlaysShownFor_ = revision;
    const double ms = editor_.msSinceEdit(revision);
    if (ms < 0) return;
    const QString shown = QString("shown %1 ms after the edit").arg(ms, 0, 'f', 0);
    setToolTip(details_ + "; overlay " + shown);
    if (!text().contains("shown")) setText(text() + ", " + shown);
}

SpawnChecksStatusLabel::SpawnChecksStatusLabel(Editor& editor, QWidget* parent) : QLabel(parent) {
    setObjectName("spawnChecksStatus");
    setToolTip("Spawn checks of the entities (stuck, fell out, leak, unreachable): see the Problems dock");
    connect(&editor.spawnChecks(), &SpawnCheckService::checked, this, [this, &editor] {
        const SpawnCheckService& checks = editor.spawnChecks();
        setText(QString("%1 spawn problem%2 (checked in %3)")
                    .arg(checks.problems().size())
                    .arg(checks.problems().size() == 1 ? "" : "s")
                    .arg(duration(checks.milliseconds(), 1)));
    });
}

} // namespace shallot
