#include "problems_dock.h"

#include "editor.h"
#include "entities/spawn_check_service.h"

#include <QListWidget>

namespace shallot {

namespace {
constexpr int kBrushRole = Qt::UserRole + 1;
constexpr int kEntityRole = Qt::UserRole + 2; // position in EditorDocument::entities()
}

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
            emit editor_.frameRequested(editor_.entityBox(entity.toInt()));
        }
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
        auto* item = new QListWidgetItem(QString("%1: %2").arg(spawnProblemName(p.kind), QString::fromStdString(p.message)), list_);
        if (p.entity >= 1) item->setData(kEntityRole, p.entity - 1);
        item->setForeground(QColor(240, 90, 80));
    }
    for (const QString& w : importWarnings_) new QListWidgetItem(w, list_);
    setWindowTitle(list_->count() ? QString("Problems (%1)").arg(list_->count()) : QString("Problems"));
}

} // namespace shallot
