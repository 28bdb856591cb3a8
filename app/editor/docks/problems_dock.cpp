#include "docks/problems_dock.h"

#include "editor.h"
#include "services/overlay_controller.h"
#include "services/spawn_check_service.h"

#include <QListWidget>

namespace shallot {

namespace {
constexpr int kBrushRole = Qt::UserRole + 1;
constexpr int kEntityRole = Qt::UserRole + 2; // position in EditorDocument::entities()
constexpr int kLeakRole = Qt::UserRole + 3;   // a leak: its position in the spawn checks' problems
constexpr int kPlaceRole = Qt::UserRole + 4;  // a heavy view: the bounds of the place (QVariantList of 6)
// The heaviest views listed (Quake mappers fix the worst first).
constexpr size_t kHeavyViewsListed = 10;

// Where a leak is shown: its hole, or, when none was found, its path up to the world box
// (the last point lies on the world box, far out).
Aabb leakFrame(const SpawnProblem& p) {
    if (!p.hole.empty()) return p.hole;
    Aabb box;
    for (size_t k = 0; k + 1 < p.path.size() || k == 0; ++k) box.add(p.path[k]);
    return box;
}
} // namespace

ProblemsDock::ProblemsDock(Editor& editor, QWidget* parent) : QDockWidget("Problems", parent), editor_(editor) {
    setObjectName("ProblemsDock");
    list_ = new QListWidget(this);
    setWidget(list_);
    connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const QVariant leak = item->data(kLeakRole);
        if (leak.isValid() && leak.toULongLong() < editor_.spawnChecks().problems().size()) {
            showLeak(editor_.spawnChecks().problems()[leak.toULongLong()]);
            return;
        }
        const QVariant place = item->data(kPlaceRole);
        if (place.isValid()) {
            const QVariantList v = place.toList();
            const Aabb box{Vec3(v[0].toDouble(), v[1].toDouble(), v[2].toDouble()), Vec3(v[3].toDouble(), v[4].toDouble(), v[5].toDouble())};
            editor_.document().setWorkingPoint(0.5 * (box.mins + box.maxs));
            emit editor_.frameRequested(box);
            return;
        }
        const QVariant brush = item->data(kBrushRole);
        if (brush.isValid()) editor_.document().setSelection({brush.toInt()});
        const QVariant entity = item->data(kEntityRole);
        if (entity.isValid()) {
            editor_.document().setSelection({});
            editor_.document().setEntitySelection({entity.toInt()});
        }
        if (entity.isValid()) emit editor_.frameRequested(editor_.entityBox(entity.toInt()));
    });
    connect(&editor_.document(), &EditorDocument::brushesChanged, this, &ProblemsDock::refresh);
    connect(&editor_.spawnChecks(), &SpawnCheckService::checked, this, &ProblemsDock::refresh);
    connect(&editor_.overlays().pvs(), &PvsService::updated, this, &ProblemsDock::refresh);
    connect(&editor_.document(), &EditorDocument::viewWeightLimitChanged, this, &ProblemsDock::refresh);
    refresh();
}

void ProblemsDock::showLeak(const SpawnProblem& leak) {
    // The path is the selection: not the start it begins at.
    editor_.document().setSelection({});
    editor_.document().setEntitySelection({});
    editor_.selectProblemPath(leak.path, leak.hole);
    // The 2D views cut through the hole, so each shows the opening in its wall.
    if (!leak.hole.empty()) editor_.document().setWorkingPoint(0.5 * (leak.hole.mins + leak.hole.maxs));
    emit editor_.frameRequested(leakFrame(leak));
}

void ProblemsDock::setImportWarnings(const QStringList& warnings) {
    importWarnings_ = warnings;
    refresh();
}

void ProblemsDock::setCompileProblems(const std::vector<std::pair<int, QString>>& problems) {
    compileProblems_ = problems;
    refresh();
}

void ProblemsDock::addHeavyViews() {
    // Of the full flow only: the base flow's sets are looser, its weights too high.
    const std::shared_ptr<const SightPvs>& pvs = editor_.overlays().pvs().latest().pvs;
    if (!pvs || !pvs->fullFlow()) return;
    const uint32_t limit = editor_.document().data().viewWeightLimit;
    for (const int32_t c : pvs->heaviestClusters(limit, kHeavyViewsListed)) {
        const Aabb& box = pvs->clusterBounds()[size_t(c)];
        const Vec3 at = 0.5 * (box.mins + box.maxs);
        auto* item = new QListWidgetItem(QString("heavy view: %1 brush faces may be seen from around (%2, %3, %4) (limit %5)")
                                             .arg(pvs->clusterWeight()[size_t(c)])
                                             .arg(at.x(), 0, 'f', 0)
                                             .arg(at.y(), 0, 'f', 0)
                                             .arg(at.z(), 0, 'f', 0)
                                             .arg(limit),
                                         list_);
        item->setData(kPlaceRole, QVariantList{box.mins.x(), box.mins.y(), box.mins.z(), box.maxs.x(), box.maxs.y(), box.maxs.z()});
        item->setToolTip("Click to frame the place (the View weight overlay colours it); block the sight lines out of it "
                         "or raise the limit (View > View Weight Limit...)");
        item->setForeground(QColor(230, 120, 230));
    }
}

void ProblemsDock::refresh() {
    list_->clear();
    auto addBrushProblem = [&](int brush, const QString& text) {
        auto* item = new QListWidgetItem(text, list_);
        item->setData(kBrushRole, brush);
        item->setForeground(QColor(230, 120, 100));
    };
    for (const auto& [brush, text] : editor_.brushProblems()) addBrushProblem(brush, text);
    for (const auto& [brush, text] : compileProblems_)
        if (std::none_of(editor_.brushProblems().begin(), editor_.brushProblems().end(),
                         [&](const auto& p) { return p.first == brush; }))
            addBrushProblem(brush, text);
    for (const SpawnProblem& p : editor_.spawnChecks().problems()) {
        // The CLI's kind names, read as words: "fell out", "unreachable (walking)".
        const QString kind = p.kind == SpawnProblemKind::UnreachableWalking ? QString("unreachable (walking)")
                                                                             : QString(spawnProblemName(p.kind)).replace('_', ' ');
        auto* item = new QListWidgetItem(QString("%1: %2").arg(kind, QString::fromStdString(p.message)), list_);
        if (p.entity >= 1) item->setData(kEntityRole, p.entity - 1);
        if (!p.path.empty()) {
            item->setData(kLeakRole, qulonglong(&p - editor_.spawnChecks().problems().data()));
            item->setToolTip(p.hole.empty() ? "Click to show the leak path (red in every view)"
                                            : "Click to show the hole the leak path leaves the level through, "
                                              "and select the path");
        }
        item->setForeground(QColor(240, 90, 80));
    }
    addHeavyViews();
    for (const QString& w : importWarnings_) new QListWidgetItem(w, list_);
    setWindowTitle(list_->count() ? QString("Problems (%1)").arg(list_->count()) : QString("Problems"));
}

} // namespace shallot
