#include "preferences_dialog.h"

#include "palette.h"
#include "views/viewport.h"

#include <QAction>
#include <QColorDialog>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QKeySequenceEdit>
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace shallot {

QColor backgroundColour() { return QSettings().value("colours/background", render::kDefaultBackgroundColour).value<QColor>(); }

QString defaultPoseName() { return QSettings().value("view/defaultPose").toString(); }

double cameraSpeedFactor() { return std::clamp(QSettings().value("camera/speed", 1.0).toDouble(), 0.05, 20.0); }

PreferencesDialog::PreferencesDialog(QMainWindow& window) : QDialog(&window), window_(window), background_(backgroundColour()) {
    setWindowTitle("Preferences");
    auto* layout = new QVBoxLayout(this);
    bindings_ = new QTableWidget(0, 2, this);
    bindings_->setHorizontalHeaderLabels({"Action", "Shortcut"});
    bindings_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    bindings_->verticalHeader()->setVisible(false);
    for (QAction* a : window.findChildren<QAction*>()) {
        if (a->objectName().isEmpty() || a->text().isEmpty()) continue;
        const int row = bindings_->rowCount();
        bindings_->insertRow(row);
        auto* name = new QTableWidgetItem(QString(a->text()).remove('&'));
        name->setData(Qt::UserRole, a->objectName());
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
        bindings_->setItem(row, 0, name);
        bindings_->setCellWidget(row, 1, new QKeySequenceEdit(a->shortcut(), bindings_));
    }
    layout->addWidget(bindings_);
    auto* colour = new QPushButton("Background colour...", this);
    connect(colour, &QPushButton::clicked, this, [this] {
        const QColor c = QColorDialog::getColor(background_, this, "View background");
        if (c.isValid()) background_ = c;
    });
    layout->addWidget(colour);
    auto* speedRow = new QFormLayout;
    cameraSpeed_ = new QDoubleSpinBox(this);
    cameraSpeed_->setObjectName("cameraSpeed");
    cameraSpeed_->setRange(0.05, 20.0);
    cameraSpeed_->setSingleStep(0.25);
    cameraSpeed_->setSuffix(" x");
    cameraSpeed_->setValue(cameraSpeedFactor());
    cameraSpeed_->setToolTip("3D camera fly speed (W A S D Q E) as a multiple of the level's size; Shift flies 4 times faster, Alt 4 times slower");
    speedRow->addRow("Camera speed", cameraSpeed_);
    grid_ = new QComboBox(this);
    grid_->setObjectName("defaultGrid");
    for (int g = 1; g <= 256; g *= 2) grid_->addItem(QString::number(g), g);
    grid_->setCurrentText(QString::number(QSettings().value("grid/size", 16).toInt()));
    grid_->setToolTip("Grid size of new levels (the last grid used is kept too; [ and ] change it)");
    speedRow->addRow("Grid", grid_);
    defaultPose_ = new QLineEdit(defaultPoseName(), this);
    defaultPose_->setObjectName("defaultPose");
    defaultPose_->setPlaceholderText("the level's first pose");
    defaultPose_->setToolTip("The pose the overlays show when a level opens, by name (e.g. player)");
    speedRow->addRow("Pose on opening", defaultPose_);
    layout->addLayout(speedRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(520, 600);
}

void PreferencesDialog::apply() {
    QSettings settings;
    for (int row = 0; row < bindings_->rowCount(); ++row) {
        const QString name = bindings_->item(row, 0)->data(Qt::UserRole).toString();
        const QKeySequence key = static_cast<QKeySequenceEdit*>(bindings_->cellWidget(row, 1))->keySequence();
        if (QAction* a = window_.findChild<QAction*>(name); a && a->shortcut() != key) {
            a->setShortcut(key);
            settings.setValue("shortcuts/" + name, key.toString());
        }
    }
    settings.setValue("colours/background", background_);
    settings.setValue("camera/speed", cameraSpeed_->value());
    settings.setValue("grid/size", grid_->currentData().toInt());
    settings.setValue("view/defaultPose", defaultPose_->text().trimmed());
    for (QWidget* w : window_.findChildren<QWidget*>()) w->update();
    for (Viewport* v : window_.findChildren<Viewport*>()) v->redraw();
}

} // namespace shallot
