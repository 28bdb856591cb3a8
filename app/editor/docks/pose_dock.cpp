#include "docks/pose_dock.h"

#include "docks/blocking_editor.h"
#include "docks/pose_shape_cell.h"
#include "document/edit_commands.h"
#include "editor.h"
#include "io/game_profile.h"
#include "wrapped_tooltips.h"

#include <QColorDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QStyledItemDelegate>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

namespace shallot {

namespace {

// The colour swatch's column: wide enough to see and double-click, no wider (the blocking
// summary takes what is left).
constexpr int kSwatchColumnWidth = 18;

const char* kWalkHelp =
    "How the pose walks: \"step drop jump slope\" (\"quake\": Quake's, 18 any off 0.7). Step: how high it climbs and steps down (Quake: 18). "
    "Drop: how far it drops off a ledge, a height or \"any\". Jump: \"height,length\" (Quake's player: "
    "45,128) or \"off\". Slope: the least upward normal z of ground it walks on (Quake: 0.7, slopes up to "
    "45.6 degrees).";

// The walking settings in the order the Walk column shows them (world/nav_settings.h).
constexpr const char* kNavFields[] = {"step", "drop", "jump", "slope"};

QString navText(const NavSettings& s) {
    return QString("%1 %2 %3 %4")
        .arg(s.stepHeight)
        .arg(std::isinf(s.maxDrop) ? QString("any") : QString::number(s.maxDrop))
        .arg(s.jump ? QString("%1,%2").arg(s.jumpHeight).arg(s.jumpLength) : QString("off"))
        .arg(s.walkableNormalZ);
}

// What the Walk column shows for Quake's walking rules (NavSettings' defaults), and what
// typed there brings them back: most poses walk so, and the blocking summary needs the room.
constexpr const char* kQuakeWalking = "quake";

QString navSummary(const NavSettings& s) { return s == NavSettings{} ? QString(kQuakeWalking) : navText(s); }

// "step drop jump slope" (or kQuakeWalking) typed in the Walk column into `nav`; false when
// it is not that.
bool parseNavText(const QString& text, NavSettings& nav) {
    if (text == kQuakeWalking) {
        nav = NavSettings{};
        return true;
    }
    const QStringList parts = text.split(' ', Qt::SkipEmptyParts);
    if (parts.size() != 4) return false;
    NavSettings typed = nav;
    for (int i = 0; i < 4; ++i)
        if (!applyNavSettingsField(QString("%1=%2").arg(kNavFields[i], parts[i]).toStdString(), typed)) return false;
    nav = typed;
    return true;
}

// Edits a summarised cell's whole text (kFullTextRole): the Box column's corners (or round
// shape) while the cell shows the size, the Walk column's four rules while it shows "quake".
class FullTextDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override {
        if (auto* line = qobject_cast<QLineEdit*>(editor)) line->setText(index.data(PoseDock::kFullTextRole).toString());
    }
};

// What an unset blocking set shows, and what typed back unsets it.
constexpr const char* kDefaultBlocking = "default";

// A blocking set in a few letters: what blocks this pose beyond what blocks every pose of
// the level (solid and window, in every game), "+playerclip"; the set itself when there is
// nothing beyond; "default" for Quake's rule.
QString blockingSummary(const Pose& pose, const std::vector<Pose>& poses) {
    if (!pose.blocking) return kDefaultBlocking;
    BrushContents common = pose.blockingSet();
    for (const Pose& q : poses) common = common & q.blockingSet();
    const BrushContents beyond = withoutContents(*pose.blocking, common);
    if (beyond == BrushContents::NonSolid || common == BrushContents::NonSolid)
        return QString::fromStdString(contentsName(*pose.blocking));
    return "+" + QString::fromStdString(contentsName(beyond));
}

QColor colourOf(uint32_t rgba) { return QColor((rgba >> 24) & 255, (rgba >> 16) & 255, (rgba >> 8) & 255); }
uint32_t rgbaOf(const QColor& c) { return uint32_t(c.red()) << 24 | uint32_t(c.green()) << 16 | uint32_t(c.blue()) << 8 | 255u; }

// Quake 3's player box is 30 wide and 56 tall (mins -15 -15 -24, maxs 15 15 32); the
// capsule preset is that wide and tall, centred on the reference point.
constexpr double kQuake3PlayerRadius = 15.0;
constexpr double kQuake3PlayerHeight = 56.0;

// The Presets menu's fixed entries: 0 Quake's, 1 stand and crouch, 2 a capsule.
std::vector<Pose> presetPoses(int preset) {
    if (preset == 0) return quakePoses();
    const Pose point{"point", Vec3::Zero(), Vec3::Zero(), 0xffffffffu};
    if (preset == 2) {
        Pose capsule = Pose::round("capsule", PoseShape::capsule(kQuake3PlayerRadius, kQuake3PlayerHeight));
        capsule.colour = 0x40c0c0ffu;
        return {point, capsule};
    }
    return {point,
            {"stand", Vec3(-16, -16, -24), Vec3(16, 16, 32), 0x40c040ffu},
            {"crouch", Vec3(-16, -16, -24), Vec3(16, 16, 8), 0x4080e0ffu}};
}

} // namespace

PoseDock::PoseDock(Editor& editor, QWidget* parent) : QDockWidget("Poses", parent), editor_(editor) {
    setObjectName("PoseDock");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    table_ = new QTableWidget(0, ColumnCount, body);
    table_->setHorizontalHeaderLabels({"Name", "", "Shape", "Walk", "Blocked by"});
    table_->horizontalHeaderItem(Colour)->setToolTip("The pose's colour (double-click to change)");
    table_->horizontalHeaderItem(Box)->setToolTip(
        "The box's size, or the round shape (capsule radius×height, ellipsoid across×up); double-click to edit: a box's corners "
        "from the pose's reference point, \"minx miny minz maxx maxy maxz\"; \"capsule:R,HEIGHT\" or \"ellipsoid:R,H\" for a "
        "round pose centred on the reference point; \"box\" makes a round pose its bounding box");
    table_->setItemDelegateForColumn(Box, new FullTextDelegate(table_));
    table_->setItemDelegateForColumn(Walk, new FullTextDelegate(table_));
    // How each pose walks (the Walkable overlay, paths, the unreachable (walking) check).
    table_->horizontalHeaderItem(Walk)->setToolTip(kWalkHelp);
    table_->horizontalHeaderItem(Blocking)->setToolTip(
        QString("The contents that block the pose (click to choose): %1; \"default\": Quake's rule, "
                "solid and window, and clip too for a box").arg(QString::fromStdString(contentsNameList())));
    for (int column = 0; column < ColumnCount; ++column)
        table_->horizontalHeaderItem(column)->setToolTip(wrappedTooltip(table_->horizontalHeaderItem(column)->toolTip()));
    // Compact: every column as wide as its text but the blocking summary, which takes the
    // rest (elided, whole in its tooltip): the dock never scrolls sideways.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(Blocking, QHeaderView::Stretch);
    table_->horizontalHeader()->setMinimumSectionSize(kSwatchColumnWidth);
    table_->horizontalHeader()->setSectionResizeMode(Colour, QHeaderView::Fixed);
    table_->horizontalHeader()->resizeSection(Colour, kSwatchColumnWidth);
    table_->setTextElideMode(Qt::ElideRight);
    table_->verticalHeader()->setVisible(false);
    layout->addWidget(table_);
    // Why a typed blocking set was refused (no dialog: the cell is still being looked at).
    message_ = new QLabel(body);
    message_->setObjectName("poseMessage");
    message_->setWordWrap(true);
    message_->setStyleSheet("color: #e05050");
    message_->hide();
    layout->addWidget(message_);
    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton("Add", body);
    auto* remove = new QPushButton("Remove", body);
    auto* presets = new QToolButton(body);
    presets->setText("Presets");
    presets->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(presets);
    // The game's own (with their blocking sets), named as the menu opens: the game may change.
    QAction* gamePreset = menu->addAction(QString(), this, [this] {
        editor_.document().undoStack()->push(new SetPosesCommand(&editor_.document(), "Pose preset",
                                                                 gamePoses(editor_.document().data().game)));
    });
    gamePreset->setObjectName("gamePosesPreset");
    connect(menu, &QMenu::aboutToShow, this, [this, gamePreset] {
        gamePreset->setText(QString("The game's poses (%1)").arg(gameTitle(editor_.document().data().game)));
    });
    menu->addAction("Quake: point, player, large", this, [this] { applyPreset(0); });
    menu->addAction("Stand and crouch", this, [this] { applyPreset(1); });
    menu->addAction("Capsule (Quake 3 player-ish): point, capsule 15×56", this, [this] { applyPreset(2); });
    presets->setMenu(menu);
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addWidget(presets);
    buttons->addStretch();
    layout->addLayout(buttons);
    setWidget(body);

    connect(add, &QPushButton::clicked, this, &PoseDock::addPose);
    connect(remove, &QPushButton::clicked, this, &PoseDock::removePose);
    connect(table_, &QTableWidget::cellChanged, this, &PoseDock::cellEdited);
    connect(table_, &QTableWidget::cellClicked, this, [this](int row, int column) {
        if (column == Blocking) editBlocking(row);
    });
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int column) {
        if (column != Colour) return;
        std::vector<Pose> poses = editor_.document().poses();
        const QColor c = QColorDialog::getColor(colourOf(poses[size_t(row)].colour), this, "Pose colour");
        if (!c.isValid()) return;
        poses[size_t(row)].colour = rgbaOf(c);
        editor_.document().undoStack()->push(new SetPosesCommand(&editor_.document(), "Pose colour", poses));
    });
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row >= 0) editor_.setCurrentPose(row);
    });
    connect(&editor_.document(), &EditorDocument::posesChanged, this, &PoseDock::refresh);
    refresh();
}

void PoseDock::refresh() {
    refreshing_ = true;
    const auto& poses = editor_.document().poses();
    table_->setRowCount(int(poses.size()));
    for (int row = 0; row < int(poses.size()); ++row) {
        const Pose& p = poses[size_t(row)];
        table_->setItem(row, Name, new QTableWidgetItem(QString::fromStdString(p.name)));
        auto* colour = new QTableWidgetItem;
        colour->setBackground(colourOf(p.colour));
        colour->setFlags(colour->flags() & ~Qt::ItemIsEditable);
        table_->setItem(row, Colour, colour);
        auto* box = new QTableWidgetItem(poseShapeSummary(p));
        box->setData(kFullTextRole, poseShapeEditText(p));
        box->setToolTip(wrappedTooltip(poseShapeTooltip(p)));
        table_->setItem(row, Box, box);
        auto* walk = new QTableWidgetItem(navSummary(p.nav));
        walk->setData(kFullTextRole, navText(p.nav));
        walk->setToolTip(QString("Step drop jump slope: %1 (double-click to edit)").arg(navText(p.nav)));
        table_->setItem(row, Walk, walk);
        const QString blocking = p.blocking ? QString::fromStdString(contentsName(*p.blocking)) : QString("%1 (Quake)").arg(kDefaultBlocking);
        auto* blocked = new QTableWidgetItem(blockingSummary(p, poses));
        blocked->setData(kFullTextRole, blocking);
        blocked->setFlags(blocked->flags() & ~Qt::ItemIsEditable); // a click opens the editor
        blocked->setToolTip(wrappedTooltip(QString("Blocked by %1 (click to change)").arg(blocking)));
        table_->setItem(row, Blocking, blocked);
    }
    refreshing_ = false;
}

void PoseDock::cellEdited(int row, int column) {
    if (refreshing_ || column == Colour) return;
    std::vector<Pose> poses = editor_.document().poses();
    Pose& p = poses[size_t(row)];
    const QString text = table_->item(row, column)->text().trimmed();
    if (column == Name) {
        p.name = text.toStdString();
    } else if (column == Blocking) {
        if (!setBlocking(p, text)) return;
    } else if (column == Walk) {
        if (!parseNavText(text, p.nav))
            return refuse(QString("\"%1\" is not how a pose walks: %2").arg(text, kWalkHelp));
    } else if (column == Box) {
        if (const QString why = applyPoseShapeText(text, p); !why.isEmpty()) return refuse(why);
    }
    message_->hide();
    const bool duplicate = std::count_if(poses.begin(), poses.end(), [&](const Pose& q) { return q.name == p.name; }) > 1;
    if (!p.isValid() || duplicate) {
        QMessageBox::warning(this, "Pose", duplicate ? "Pose names must be unique." : "A pose needs a name and mins no larger than maxs.");
        refresh();
        return;
    }
    editor_.document().undoStack()->push(new SetPosesCommand(&editor_.document(), "Edit pose", poses));
}

void PoseDock::refuse(const QString& why) {
    message_->setText(why);
    message_->show();
    refresh();
}

void PoseDock::editBlocking(int row) {
    const auto& poses = editor_.document().poses();
    if (row < 0 || size_t(row) >= poses.size()) return;
    const Pose& pose = poses[size_t(row)];
    BlockingEditor dialog(QString::fromStdString(pose.name), pose.blocking, this);
    if (dialog.exec() != QDialog::Accepted) return;
    const std::optional<BrushContents> set = dialog.blocking();
    // Through the cell, as typed text would go: one path for both.
    table_->item(row, Blocking)->setText(set ? QString::fromStdString(contentsName(*set)) : QString(kDefaultBlocking));
}

bool PoseDock::setBlocking(Pose& pose, const QString& text) {
    if (text.isEmpty() || text.startsWith(kDefaultBlocking)) {
        pose.blocking.reset();
        return true;
    }
    const std::optional<BrushContents> set = parseContents(text.toStdString());
    if (!set) {
        const QString message = QString("\"%1\" is not a contents set: name contents joined by + (%2), or \"default\".")
                                    .arg(text, QString::fromStdString(contentsNameList()));
        message_->setText(message);
        message_->show();
        refresh();
        return false;
    }
    pose.blocking = *set;
    message_->hide();
    return true;
}

void PoseDock::addPose() {
    std::vector<Pose> poses = editor_.document().poses();
    if (poses.size() >= size_t(kMaxPoses)) return;
    std::string name = "pose";
    for (int n = int(poses.size()) + 1;; ++n) {
        name = "pose" + std::to_string(n);
        if (std::none_of(poses.begin(), poses.end(), [&](const Pose& q) { return q.name == name; })) break;
    }
    poses.push_back({name, Vec3(-16, -16, -24), Vec3(16, 16, 32), 0xc0c040ffu});
    editor_.document().undoStack()->push(new SetPosesCommand(&editor_.document(), "Add pose", poses));
}

void PoseDock::removePose() {
    std::vector<Pose> poses = editor_.document().poses();
    const int row = table_->currentRow();
    if (row < 0 || poses.size() <= 1) return; // a world keeps at least one pose
    poses.erase(poses.begin() + row);
    editor_.document().undoStack()->push(new SetPosesCommand(&editor_.document(), "Remove pose", poses));
}

void PoseDock::applyPreset(int preset) {
    editor_.document().undoStack()->push(new SetPosesCommand(&editor_.document(), "Pose preset", presetPoses(preset)));
}

} // namespace shallot
