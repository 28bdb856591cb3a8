#include "docks/problems_dock.h"

#include "editor.h"
#include "services/spawn_check_service.h"

#include <QListWidget>

namespace shallot {

namespace {
constexpr int kBrushRole = Qt::UserRole + 1;
constexpr int kEntityRole = Qt::UserRole + 2; // position in EditorDocument::entities()
constexpr int kPathRole = Qt::UserRole + 3;   // a leak path's box: minx miny minz maxx maxy maxz

QVariantList boxVariant(const Aabb& box) {
    return {box.mins.x(), box.mins.y(), box.mins.z(), box.maxs.x(), box.maxs.y(), box.maxs.z()};
}

Aabb boxFromVariant(const QVariantList& v) {
    return {Vec3(v[0].toDouble(), v[1].toDouble(), v[2].toDouble()), Vec3(v[3].toDouble(), v[4].toDouble(), v[5].toDouble())};
}
} // namespace

ProblemsDock::ProblemsDock(Editor& editor, QWidget* parent) : QDockWidget("Problems", parent), editor_(editor) {
    setObjectName("ProblemsDock");
    list_ = new QListWidget(this);
    setWidget(list_);
    connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const QVariant brush = item->data(kBrushRole);
        if (brush.isValid()) editor_.document().setSelection({brush.toInt()});
        const QVariant entity = item->data(kEntityRole);
        if (entity.isValid()) {
            editor_.document().setSelection({});
            editor_.document().setEntitySelection({entity.toInt()});
        }
        // A leak shows its whole path (drawn red in every view); other problems their entity.
        const QVariant path = item->data(kPathRole);
        if (path.isValid()) emit editor_.frameRequested(boxFromVariant(path.toList()));
        else if (entity.isValid()) emit editor_.frameRequested(editor_.entityBox(entity.toInt()));
    });
    connect(&editor_.document(), &EditorDocument::brushesChanged, this, &ProblemsDock::refresh);
    connect(&editor_.spawnChecks(), &SpawnCheckService::checked, this, &ProblemsDock::refresh);
    refresh();
}

void ProblemsDock::setImportWarnings(const QStringList& warnings) {
    importWarnings_ = warnings;
    refresh();
}

void ProblemsDock::setCompileProblems(const std::vector<std::pair<int, QString>>& problems) {
    compileProblems_ = problems;
    refresh();
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
            // Its last point lies on the world box, far out: the path up to the opening.
            Aabb box;
            for (size_t k = 0; k + 1 < p.path.size() || k == 0; ++k) box.add(p.path[k]);
            item->setData(kPathRole, boxVariant(box));
            item->setToolTip("Click to show the leak path (red in every view)");
        }
        item->setForeground(QColor(240, 90, 80));
    }
    for (const QString& w : importWarnings_) new QListWidgetItem(w, list_);
    setWindowTitle(list_->count() ? QString("Problems (%1)").arg(list_->count()) : QString("Problems"));
}

} // namespace shallot
