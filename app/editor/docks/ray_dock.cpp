#include "docks/ray_dock.h"

#include "document/edit_commands.h"
#include "editor.h"
#include "services/compile_service.h"
#include "services/nav_service.h"
#include "services/overlay_controller.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace shallot {

namespace {

enum Column { Ray, PoseName, StartSolid, Hit, T, Point, Normal, WalkEnd, Path, ColumnCount };

// A walk that ends within this distance of its target reached it (slideMove's own
// tolerances are far finer; a designer reads whole units).
constexpr double kReachedTarget = 0.01;
// The table shows at least this many rows without scrolling (a ray's rows, one per pose).
constexpr int kRowsShown = 4;

QString vec(const Vec3& v) { return QString("%1 %2 %3").arg(v.x(), 0, 'g', 6).arg(v.y(), 0, 'g', 6).arg(v.z(), 0, 'g', 6); }

} // namespace

RayDock::RayDock(Editor& editor, QWidget* parent) : QDockWidget("Test rays", parent), editor_(editor) {
    setObjectName("RayDock");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    table_ = new QTableWidget(0, ColumnCount, body);
    table_->setHorizontalHeaderLabels({"Ray", "Pose", "Start solid", "Hit", "t", "Contact", "Normal", "Walk ends", "Path"});
    table_->horizontalHeaderItem(Path)->setToolTip("The walking path from the ray's start to its end for the pose (each dropped onto "
                                                   "the floor below; steps of 18, drops): its length, or none (its tooltip says why); "
                                                   "marked (updating) while the walkable surfaces and travel of a newer edit are built. "
                                                   "Walkable (Alt+6) draws it");
    table_->horizontalHeaderItem(Point)->setToolTip("Where the pose's reference point first touches the world (empty on a miss)");
    table_->horizontalHeaderItem(WalkEnd)->setToolTip("For a walking ray: where collide-and-slide (step 18) ends, and whether it got there");
    table_->setMinimumHeight(table_->horizontalHeader()->sizeHint().height() + kRowsShown * table_->verticalHeader()->defaultSectionSize() +
                             2 * table_->frameWidth());
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    layout->addWidget(table_);
    auto* buttons = new QHBoxLayout;
    auto* remove = new QPushButton("Remove", body);
    remove->setToolTip("Remove the selected ray (undoable)");
    auto* walk = new QPushButton("Walk on/off", body);
    walk->setToolTip("Walk the selected ray: draw the collide-and-slide path (18-unit steps) instead of the straight trace");
    auto* reach = new QPushButton("Reach from start", body);
    reach->setToolTip("Show the Reachability overlay from the selected ray's start");
    auto* inspect = new QPushButton("Inspect start", body);
    inspect->setToolTip("Show the leaf at the selected ray's start in the leaf inspector");
    for (QPushButton* b : {remove, walk, reach, inspect}) buttons->addWidget(b);
    buttons->addStretch();
    layout->addLayout(buttons);
    setWidget(body);
    connect(remove, &QPushButton::clicked, this, &RayDock::removeRay);
    connect(walk, &QPushButton::clicked, this, &RayDock::toggleWalk);
    connect(reach, &QPushButton::clicked, this, [this] {
        const int r = currentRay();
        if (r < 0) return;
        editor_.overlays().setReachStart(editor_.document().rays()[size_t(r)].from);
        editor_.overlays().setOn(Overlay::Reach, true);
    });
    connect(inspect, &QPushButton::clicked, this, [this] {
        const int r = currentRay();
        if (r >= 0) emit inspectPoint(editor_.document().rays()[size_t(r)].from);
    });
    connect(&editor_.overlays(), &OverlayController::raysTraced, this, &RayDock::refresh);
    connect(&editor_.document(), &EditorDocument::posesChanged, this, &RayDock::refresh);
    connect(&editor_.compiler(), &CompileService::compileStarted, this, &RayDock::refresh);
    refresh();
}

int RayDock::currentRay() const {
    const int row = table_->currentRow();
    const int poses = std::max<int>(1, int(editor_.document().poses().size()));
    return row < 0 ? -1 : row / poses;
}

void RayDock::refresh() {
    const auto& rays = editor_.document().rays();
    const auto& poses = editor_.document().poses();
    const auto& results = editor_.overlays().rayResults();
    // The paths of an edit come after its compile, its walkable meshes and its travel (the
    // travel at the lowest priority: seconds on a loaded machine): until then the column
    // says that what it shows is the level's before the edit.
    const bool updating = !rays.empty() && (editor_.compiler().busy() || editor_.compiler().awaitingSnapshot() ||
                                            !editor_.overlays().nav().pathsCurrent(editor_.overlays().compiled()));
    table_->setRowCount(int(rays.size() * poses.size()));
    int row = 0;
    for (size_t i = 0; i < rays.size(); ++i) {
        for (size_t p = 0; p < poses.size(); ++p, ++row) {
            QStringList cells(ColumnCount);
            cells[Ray] = QString::fromStdString(rays[i].name) + (rays[i].walk ? " (walk)" : "");
            cells[PoseName] = QString::fromStdString(poses[p].name);
            if (i < results.size() && p < results[i].size()) {
                const TraceResult& r = results[i][p];
                cells[StartSolid] = r.startSolid ? "yes" : "no";
                cells[Hit] = r.hit ? "yes" : "no";
                cells[T] = QString::number(r.t, 'g', 6);
                cells[Point] = r.hit ? vec(r.point) : QString();
                cells[Normal] = r.hit ? vec(r.normal) : QString();
            }
            if (rays[i].walk)
                if (const std::optional<Vec3> end = editor_.overlays().walkEnd(rays[i].from, rays[i].to, int(p)))
                    cells[WalkEnd] = vec(*end) + ((*end - rays[i].to).norm() < kReachedTarget ? " (got there)" : " (stopped short)");
            const auto& paths = editor_.overlays().nav().rayPaths();
            const bool hasPath = i < paths.size() && p < paths[i].size();
            if (hasPath) cells[Path] = paths[i][p].found ? pathLengthAndTime(paths[i][p]) : QString("none");
            if (updating) cells[Path] = cells[Path].isEmpty() ? QString("being built") : cells[Path] + " (updating)";
            for (int c = 0; c < ColumnCount; ++c) table_->setItem(row, c, new QTableWidgetItem(cells[c]));
            // Why there is none, on the cell, and that it may change.
            QString why = hasPath && !paths[i][p].found ? pathMissReason(paths[i][p].miss, QString::fromStdString(poses[p].name)) : QString();
            if (updating) {
                why = QString("The walkable surfaces and travel of the newest edit are being built; %1")
                          .arg(hasPath ? "this is the path through the level before it." + (why.isEmpty() ? QString() : " " + why)
                                       : QString("the path follows."));
                table_->item(row, Path)->setForeground(palette().brush(QPalette::Disabled, QPalette::Text));
            }
            if (!why.isEmpty()) table_->item(row, Path)->setToolTip(why);
        }
    }
}

void RayDock::removeRay() {
    const int r = currentRay();
    if (r < 0) return;
    std::vector<TestRay> rays = editor_.document().rays();
    rays.erase(rays.begin() + r);
    editor_.document().undoStack()->push(new SetRaysCommand(&editor_.document(), "Remove ray", rays));
}

void RayDock::toggleWalk() {
    const int r = currentRay();
    if (r < 0) return;
    std::vector<TestRay> rays = editor_.document().rays();
    rays[size_t(r)].walk = !rays[size_t(r)].walk;
    editor_.document().undoStack()->push(new SetRaysCommand(&editor_.document(), "Toggle walk", rays));
}

} // namespace shallot
