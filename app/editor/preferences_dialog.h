#pragma once
// Edit > Preferences: key bindings of every named action and the views' background
// colour, kept in QSettings ("shortcuts/<action>", "colours/background").
#include <QColor>
#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QTableWidget;
class QMainWindow;

namespace shallot {

// The views' background colour from the settings (dark grey by default).
QColor backgroundColour();
// The 3D camera's fly speed as a multiple of the level's own (settings "camera/speed",
// 1 by default; see Viewport3D::flySpeed).
double cameraSpeedFactor();
// The pose the overlays show when a level opens, by name (settings "view/defaultPose";
// empty, or a name the level lacks: the pose shown stays).
QString defaultPoseName();

class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QMainWindow& window);
    // Writes the edited bindings and colour to the settings and applies them.
    void apply();

private:
    QMainWindow& window_;
    QTableWidget* bindings_;
    QDoubleSpinBox* cameraSpeed_;
    QComboBox* grid_;
    QLineEdit* defaultPose_;
    QColor background_;
};

} // namespace shallot
