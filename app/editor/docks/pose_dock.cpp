#include "docks/pose_dock.h"

#include "document/edit_commands.h"
#include "editor.h"
#include "io/game_profile.h"

#include <QColorDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

namespace shallot {

namespace {

enum Column { Name, MinX, MinY, MinZ, MaxX, MaxY, MaxZ, Colour, Blocking, Step, Drop, Jump, Slope, ColumnCount };

// The navigation settings' columns and the field each edits (world/nav_settings.h).
const char* navField(int column) {
    switch (column) {
    case Step: return "step";
    case Drop: return "drop";
    case Jump: return "jump";
    case Slope: return "slope";
    default: return nullptr;
    }
}

QString navText(const NavSettings& s, int column) {
    switch (column) {
    case Step: return QString::number(s.stepHeight);
    case Drop: return std::isinf(s.maxDrop) ? QString("any") : QString::number(s.maxDrop);
    case Jump: return s.jump ? QString("%1,%2").arg(s.jumpHeight).arg(s.jumpLength) : QString("off");
    case Slope: return QString::number(s.walkableNormalZ);
    default: return {};
    }
}

// What an unset blocking set shows, and what typed back unsets it.
constexpr const char* kDefaultBlocking = "default";

QColor colourOf(uint32_t rgba) { return QColor((rgba >> 24) & 255, (rgba >> 16) & 255, (rgba >> 8) & 255); }
uint32_t rgbaOf(const QColor& c) { return uint32_t(c.red()) << 24 | uint32_t(c.green()) << 16 | uint32_t(c.blue()) << 8 | 255u; }

std::vector<Pose> presetPoses(int preset) {
    if (preset == 0) return quakePoses();
    return {{"point", Vec3::Zero(), Vec3::Zero(), 0xffffffffu},
            {"stand", Vec3(-16, -16, -24), Vec3(16, 16, 32), 0x40c040ffu},
            {"crouch", Vec3(-16, -16, -24), Vec3(16, 16, 8), 0x4080e0ffu}};
}

} // namespace

PoseDock::PoseDock(Editor& editor, QWidget* parent) : QDockWidget("Poses", parent), editor_(editor) {
    setObjectName("PoseDock");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    table_ = new QTableWidget(0, ColumnCount, body);
    table_->setHorizontalHeaderLabels(
        {"Name", "Min X", "Min Y", "Min Z", "Max X", "Max Y", "Max Z", "Colour", "Blocked by", "Step", "Drop", "Jump", "Slope"});
    // How each pose walks (the Walkable overlay, paths, the unreachable (walking) check).
    table_->horizontalHeaderItem(Step)->setToolTip("How high the pose climbs and steps down (Quake: 18)");
    table_->horizontalHeaderItem(Drop)->setToolTip("How far the pose drops off a ledge: a height, or \"any\"");
    table_->horizontalHeaderItem(Jump)->setToolTip(
        "Jumps off ledges: \"height,length\" (Quake's player: 45,128), or \"off\"");
    table_->horizontalHeaderItem(Slope)->setToolTip(
        "The least upward normal z of ground the pose walks on (Quake: 0.7, slopes up to 45.6 degrees)");
    table_->horizontalHeaderItem(Blocking)->setToolTip(
        QString("The contents that block the pose, joined by + (%1); \"default\": Quake's rule, "
                "solid and window, and clip too for a box").arg(QString::fromStdString(contentsNameList())));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
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
        for (int k = 0; k < 3; ++k) {
            table_->setItem(row, MinX + k, new QTableWidgetItem(QString::number(p.mins[k])));
            table_->setItem(row, MaxX + k, new QTableWidgetItem(QString::number(p.maxs[k])));
        }
        auto* colour = new QTableWidgetItem;
        colour->setBackground(colourOf(p.colour));
        colour->setFlags(colour->flags() & ~Qt::ItemIsEditable);
        table_->setItem(row, Colour, colour);
        table_->setItem(row, Blocking, new QTableWidgetItem(p.blocking ? QString::fromStdString(contentsName(*p.blocking))
                                                                       : QString("%1 (Quake)").arg(kDefaultBlocking)));
        for (int column = Step; column <= Slope; ++column)
            table_->setItem(row, column, new QTableWidgetItem(navText(p.nav, column)));
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
    } else if (const char* field = navField(column)) {
        const QString typed = QString("%1=%2").arg(field, QString(text).remove(' '));
        if (!applyNavSettingsField(typed.toStdString(), p.nav)) {
            message_->setText(QString("\"%1\" is not a %2 setting: %3.")
                                  .arg(text, field, table_->horizontalHeaderItem(column)->toolTip()));
            message_->show();
            refresh();
            return;
        }
        message_->hide();
    } else {
        bool ok = false;
        const double v = text.toDouble(&ok);
        if (!ok) {
            refresh();
            return;
        }
        (column <= MinZ ? p.mins : p.maxs)[(column - MinX) % 3] = v;
    }
    const bool duplicate = std::count_if(poses.begin(), poses.end(), [&](const Pose& q) { return q.name == p.name; }) > 1;
    if (!p.isValid() || duplicate) {
        QMessageBox::warning(this, "Pose", duplicate ? "Pose names must be unique." : "A pose needs a name and mins no larger than maxs.");
        refresh();
        return;
    }
    editor_.document().undoStack()->push(new SetPosesCommand(&editor_.document(), "Edit pose", poses));
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
